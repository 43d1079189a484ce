"""The server speaks Chinese to a Chinese player: every refusal (WebSocket and HTTP), every rule
setting and option value, every preset's title and description — and no internal words (seed
numbers) in what players read."""

from __future__ import annotations

import dataclasses
import re
from enum import StrEnum
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game  # noqa: E402
from tuolaji.messages import catalog  # noqa: E402
from tuolaji.ruleset import PRESETS, RuleSet, RuleSetError, load_rules  # noqa: E402
from tuolaji.server.protocol import MessageError, parse_message  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402

CJK = re.compile(r"[\u4e00-\u9fff]")


def english_words(text: str) -> list[str]:
    """Words of three or more Latin letters, leaving out quoted names a player typed or must type
    ('S10', 'type') and the two JSON words a message field takes."""
    text = re.sub(r"'[^']*'|“[^”]*”", "", text)
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ("JSON", "true", "false")]


def chinese(text: str) -> None:
    assert CJK.search(text) and not english_words(text), text


BAD_RULES: list[Any] = [
    {"decks": 9},
    {"players": 5},
    {"declare_style": "xx"},
    {"self_override": 1},
    {"hand_size": -1},
    {"hand_size": 20, "kitty_size": 8},
    {"start_level": "Z"},
    {"must_defend": ["Z"]},
    {"match_end": "fixed_rounds"},
    {"match_end": "timed"},
    {"zz": 1},
    {"decks": "2"},
    {"preset": "qq"},
    "qq",
    7,
]


@pytest.mark.parametrize("spec", BAD_RULES, ids=str)
def test_rule_refusals_in_chinese(spec: Any) -> None:
    with pytest.raises(RuleSetError) as err:
        if isinstance(spec, int):
            RuleSet.from_dict(spec)  # type: ignore[arg-type]
        else:
            load_rules(spec)
    chinese(err.value.message("zh"))
    assert err.value.message("en") == str(err.value)


def test_every_setting_and_option_has_chinese() -> None:
    settings, options = catalog("zh")["setting"], catalog("zh")["option"]
    for f in dataclasses.fields(RuleSet):
        assert f.name in settings, f"setting {f.name} has no label"
        value = getattr(RuleSet(), f.name)
        if isinstance(value, StrEnum):
            for option in type(value):
                assert option.value in options, f"{f.name}={option.value} has no label"
                assert CJK.search(options[option.value])


@pytest.mark.parametrize(
    "raw",
    [
        "[1]",
        '{"type": 3}',
        '{"type": "play"}',
        '{"type": "play", "cards": "SA"}',
        '{"type": "play", "cards": ["S1"]}',
        '{"type": "play", "cards": ["SA"], "colour": 1}',
        '{"type": "sit", "seat": 99}',
        '{"type": "autoplay", "on": 1}',
        '{"type": "settings", "speed": "warp"}',
        '{"type": "hello", "name": "' + "x" * 30 + '"}',
        '{"type": "ping", "id": []}',
        '{"type": "call_friend", "card": "XX"}',
    ],
)
def test_malformed_messages_are_explained_in_chinese(raw: str) -> None:
    with pytest.raises(MessageError) as err:
        parse_message(raw)
    chinese(err.value.message("zh"))


def test_http_refusals_and_rule_texts_in_chinese(tmp_path: Path) -> None:
    zh = {"X-Tuolaji-Lang": "zh"}
    with LiveServer(tmp_path / "g.sqlite3") as srv:
        url = srv.url
        answers = [
            httpx.post(url + "/api/games", json={"seat": 9}, headers=zh),
            httpx.post(url + "/api/games", json={"name": "x" * 30}, headers=zh),
            httpx.post(url + "/api/games", json={"seed": 1}, headers=zh),
            httpx.post(url + "/api/games", json={"rules": {"preset": "classic", "decks": 9}}, headers=zh),
            httpx.post(url + "/api/games", json={"speed": "warp"}, headers=zh),
            httpx.post(url + "/api/games", json=[1], headers=zh),
            httpx.get(url + "/api/games/ZZZZZ", headers=zh),
        ]
        code = create_game(srv, token="owner", seed=None)["code"]
        answers += [
            httpx.delete(url + f"/api/games/{code}", headers={**zh, "X-Tuolaji-Token": "stranger"}),
            httpx.get(url + f"/api/games/{code}/replay?round=3", headers=zh),
            httpx.get(url + f"/api/games/{code}/replay?seat=x", headers=zh),
        ]
        for r in answers:
            assert r.status_code >= 400, r.text
            chinese(r.json()["error"])
        checked = httpx.post(url + "/api/rules/check", json={"rules": {"decks": 9}}, headers=zh).json()
        assert checked["ok"] is False
        chinese(checked["error"])
        # English when the page asks for English, whatever the browser prefers
        en = httpx.get(url + "/api/games/ZZZZZ", headers={"X-Tuolaji-Lang": "en", "Accept-Language": "zh-CN"})
        assert en.json()["error"] == "there is no such game"
        # a spectator's refused play, in Chinese
        c = Client(srv, code, lang="zh")
        try:
            chinese(c.refused({"type": "play", "cards": ["SA"]})["reason"])
            chinese(c.refused({"type": "play", "cards": ["S1"]})["reason"])
        finally:
            c.close()
        schema = httpx.get(url + "/api/rules").json()
    labels = schema["labels"]
    for f in schema["fields"]:
        assert CJK.search(labels["settings"][f["name"]]["zh"])
        for option in f.get("options", []):
            chinese(labels["options"][option]["zh"])
    for name in PRESETS:
        text = labels["presets"][name]
        assert CJK.search(text["title"]["zh"]) and CJK.search(text["description"]["zh"])
        for words in (text["description"]["en"], text["description"]["zh"]):
            assert not re.search(r"seed|种子|\b0\d\d\b", words, re.I), f"{name}: {words}"


def test_seat_names_follow_the_screen() -> None:
    from tuolaji.server.seat_names import seat_names

    # seat 2 sits at the bottom of its own screen: 我; seat 3, next to play, on its right: 下家
    assert seat_names(["", "", "", ""], 2, "zh") == ["对家", "上家", "我", "下家"]
    assert seat_names(["", "", "", ""], 0, "en") == ["South", "East", "North", "West"]
    assert seat_names(["", "Li", "", ""], None, "zh") == ["南家", "Li", "北家", "西家"]
    assert seat_names([""] * 6, 1, "zh")[0] == "1 号位"
