"""The message catalogs: one per language, covering every refusal code and every client text."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from tuolaji.cards import new_deck, parse_cards
from tuolaji.declaring import read_bid
from tuolaji.engine.actions import Declare, Play, Redeal
from tuolaji.engine.match import Match
from tuolaji.engine.round import Round
from tuolaji.errors import IllegalAction, Reason
from tuolaji.messages import LANGUAGES, catalog, text
from tuolaji.messages.to_js import TARGET, render
from tuolaji.record import RecordError, from_record, to_record
from tuolaji.ruleset import RuleSet, RuleSetError, RulesProblem, load_rules
from tuolaji.server.protocol import reason_text

SRC = Path(__file__).resolve().parent.parent / "src" / "tuolaji"
# Calls whose first string argument (or second, after the request) is a refusal code.
CODE_TAKERS = {"IllegalAction": 0, "RuleError": 0, "MessageError": 0, "reason_text": 0, "_refuse": 1, "refuse": 1}


def _fields(s: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(s) if name}


def test_every_language_has_the_same_keys_and_fields() -> None:
    en = catalog("en")
    for lang in LANGUAGES:
        cat = catalog(lang)
        assert cat.keys() == en.keys(), lang
        for section, texts in en.items():
            assert cat[section].keys() == texts.keys(), (lang, section, cat[section].keys() ^ texts.keys())
            for key, value in texts.items():  # a translation may leave out an English-only detail
                assert _fields(cat[section][key]) <= _fields(value), (lang, section, key)
                assert _fields(value) - _fields(cat[section][key]) <= {"detail"}, (lang, section, key)


def test_reason_texts_cover_exactly_the_reason_codes() -> None:
    for lang in LANGUAGES:
        assert set(catalog(lang)["reason"]) == {r.value for r in Reason}, lang
        assert set(catalog(lang)["rules"]) == {p.value for p in RulesProblem}, lang


def test_chinese_texts_are_chinese() -> None:
    zh = catalog("zh")
    english_only = [
        f"{sec}.{key}"
        for sec, texts in zh.items()
        for key, value in texts.items()
        if value.strip() and value == catalog("en")[sec][key] and any(ch.isalpha() and ch.isascii() for ch in value)
    ]
    assert not english_only


def calls(takers: dict[str, int]) -> Iterator[tuple[str, ast.Call, int]]:
    """Every call in src/ of a name in ``takers`` (where, the call, the code's position)."""
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in takers:
                    yield f"{path.relative_to(SRC)}:{node.lineno}", node, takers[name]


def test_every_code_the_code_raises_is_a_reason() -> None:
    """A refusal code spelled as a string anywhere in src/ must be a Reason (and so have texts)."""
    unknown = []
    for where, node, pos in calls(CODE_TAKERS):
        arg = node.args[pos] if len(node.args) > pos else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value not in set(Reason):
            unknown.append(f"{where} {arg.value}")
    assert not unknown
    fields = catalog("en")["field"]
    assert not [
        where
        for where, node, _ in calls({"Why": 0})
        if not (isinstance(node.args[0], ast.Constant) and node.args[0].value in fields)
    ]


@pytest.mark.parametrize(
    "lang, expected", [("en", "play exactly 2 card(s), as many as the lead"), ("zh-CN", "必须出 2 张牌，与首家张数相同")]
)
def test_refusals_read_in_the_players_language(lang: str, expected: str) -> None:
    assert IllegalAction(Reason.WRONG_COUNT, n=2).message(lang) == expected
    assert text("reason", Reason.WRONG_COUNT, lang, n=2) == expected


def test_the_clients_copy_is_current() -> None:
    assert TARGET.read_text("utf-8") == render(), "run: python -m tuolaji.messages.to_js"


# ------------------------------------------------------------------ no English inside Chinese
CJK = re.compile(r"[\u4e00-\u9fff]")
DETAIL_FIELDS = ("why", "cause", "where")  # "detail": English for developers, which no Chinese text shows
ERROR_TAKERS = {**CODE_TAKERS, "RecordError": 0, "RuleSetError": 0, "HostError": 1}


def english_words(s: str) -> list[str]:
    """Words of three or more Latin letters outside quotes (a card such as 'S10', a JSON key)."""
    s = re.sub(r"'[^']*'|“[^”]*”", "", s)
    return [w for w in re.findall(r"[A-Za-z]{3,}", s) if w not in ("JSON", "null", "Unicode")]


def test_no_refusal_carries_an_english_sentence() -> None:
    """The part of a refusal that says why is a code (a Reason, an error with its own code) or a
    bilingual Why, never an English string that a Chinese sentence would quote."""
    found = []
    for where, node, _ in calls(ERROR_TAKERS):
        for kw in node.keywords:
            v = kw.value
            english = (
                isinstance(v, (ast.JoinedStr, ast.Constant))
                and not isinstance(getattr(v, "value", ""), int)
                or isinstance(v, ast.Call)
                and isinstance(v.func, ast.Name)
                and v.func.id == "str"
            )
            if kw.arg in DETAIL_FIELDS and english:
                found.append(f"{where} {kw.arg}=")
    assert not found
    assert not [key for texts in catalog("zh").values() for key, value in texts.items() if "detail" in _fields(value)]


def _zh(exc: IllegalAction | RuleSetError | RecordError) -> str:
    said = exc.message("zh")
    assert CJK.search(said) and not english_words(said), said
    return said


def test_the_engines_refusals_are_all_chinese_in_chinese() -> None:
    rules = RuleSet(declare_style="joker_backed", redeal_request=True)
    rnd = Round(rules=rules, deck=new_deck(2), level=5, dealer=None)
    refusals = []
    for cards in ("BJ", "LJ BJ", "H5", "S9", "BJ BJ BJ", "H5 H5 H5 BJ", "H5 S5 BJ"):
        try:
            read_bid(0, parse_cards(cards), 5, rules)
        except IllegalAction as exc:
            refusals.append(exc)
    assert len(refusals) == 7
    for action in (Play(0, ()), Redeal(1), Declare(9, ())):
        with pytest.raises(IllegalAction) as err:
            rnd.check(action)
        refusals.append(err.value)
    said = [_zh(exc) for exc in refusals]
    assert "现在不能这样做（发牌）" in said
    assert "这些牌不能亮主：级牌要带一张大王一起亮（级牌带同色王）" in said
    assert (
        _zh(IllegalAction(Reason.NO_REDEAL, why=Reason.REDEAL_POINTS, pts=25, most=10))
        == "不能要求重新发牌：你的手牌有 25 分（最多 10 分才可以）"
    )
    assert (
        IllegalAction(Reason.NO_REDEAL, why=Reason.REDEAL_POINTS, pts=25, most=10).message("en")
        == "you may not ask for a redeal: your hand holds 25 points (at most 10)"
    )


@pytest.mark.parametrize(
    "spec",
    [
        {"decks": 9},
        {"declare_style": "xx"},
        {"zz": 1},
        "qq",
        {"match_end": "timed"},
        {"hand_size": 20, "kitty_size": 8},
        {"start_level": "Z"},
    ],
)
def test_rule_refusals_and_damaged_records_are_all_chinese_in_chinese(spec: object) -> None:
    with pytest.raises(RuleSetError) as err:
        load_rules(spec)  # type: ignore[arg-type]
    _zh(err.value)
    assert "“" in err.value.message("zh") or not isinstance(spec, dict) or "zz" in spec  # the setting's label
    record = to_record(Match(seed=1))
    with pytest.raises(RecordError) as bad:
        from_record({**record, "rules": spec if isinstance(spec, dict) else {"decks": 9}})
    assert _zh(bad.value).startswith("“rules”：")
    assert reason_text(Reason.BAD_RECORD, "zh", why=bad.value).endswith(bad.value.message("zh"))
