"""The message catalogs: one per language, covering every refusal code and every client text."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from tuolaji.errors import IllegalAction, Reason
from tuolaji.messages import LANGUAGES, catalog, text
from tuolaji.messages.to_js import TARGET, render

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
            for key, value in texts.items():
                assert _fields(cat[section][key]) == _fields(value), (lang, section, key)


def test_reason_texts_cover_exactly_the_reason_codes() -> None:
    for lang in LANGUAGES:
        assert set(catalog(lang)["reason"]) == {r.value for r in Reason}, lang


def test_chinese_texts_are_chinese() -> None:
    zh = catalog("zh")
    english_only = [f"{sec}.{key}" for sec, texts in zh.items() for key, value in texts.items()
                    if value.strip() and value == catalog("en")[sec][key] and any(ch.isalpha() and ch.isascii() for ch in value)]
    assert not english_only


def test_every_code_the_code_raises_is_a_reason() -> None:
    """A refusal code spelled as a string anywhere in src/ must be a Reason (and so have texts)."""
    unknown = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            pos = CODE_TAKERS.get(name)
            if pos is None or len(node.args) <= pos:
                continue
            arg = node.args[pos]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value not in set(Reason):
                unknown.append(f"{path.relative_to(SRC)}:{node.lineno} {arg.value}")
    assert not unknown


@pytest.mark.parametrize("lang, expected", [("en", "play exactly 2 card(s), as many as the lead"),
                                            ("zh-CN", "必须出 2 张牌，与首家张数相同")])
def test_refusals_read_in_the_players_language(lang: str, expected: str) -> None:
    assert IllegalAction(Reason.WRONG_COUNT, n=2).message(lang) == expected
    assert text("reason", Reason.WRONG_COUNT, lang, n=2) == expected


def test_the_clients_copy_is_current() -> None:
    assert TARGET.read_text("utf-8") == render(), "run: python -m tuolaji.messages.to_js"
