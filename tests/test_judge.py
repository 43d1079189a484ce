"""The judge protocol itself (docs/judge.md): framing, ids, errors, options. The rules answers are
in tests/scenarios/ (test_scenarios.py)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_scenarios import _judge_command
from tuolaji.judge import OPS, handle, handle_line, serve


def req(op: str, **kw: Any) -> dict[str, Any]:
    return {"id": "t", "op": op, "decks": 2, "level": "5", "trump": "H", **kw}


def run_serve(text: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    serve(io.StringIO(text), out)
    lines = out.getvalue().splitlines()
    return [json.loads(line) for line in lines]


def test_the_ops_are_the_documented_ones() -> None:
    assert set(OPS) == {
        "winner",
        "legal",
        "throw",
        "combos",
        "kitty_multiplier",
        "level_change",
        "declare",
        "coins",
        "match_result",
        "redeal",
        "surrender",
    }


def test_the_judge_takes_the_coin_settings_and_refuses_bad_coin_requests() -> None:
    rules = {
        "stake": 100,
        "override_count_multiplies_stake": True,
        "throw_penalty": "stake",
        "match_end": "timed",
        "match_minutes": 30,
        "match_target_level": "6",
    }
    ok = handle({**req("coins", points=0, dealer_side=[0, 2], overrides=1, failed_throws=[0, 0, 1, 0]), "rules": rules})
    assert ok["coins"] == [600, -600, 550, -600] and ok["levels"] == 3
    for bad, word in (
        ({"dealer_side": [0, 9]}, "dealer_side"),
        ({"dealer_side": []}, "dealer_side"),
        ({"overrides": -1}, "overrides"),
        ({"failed_throws": [0, 0]}, "failed_throws"),
        ({"points": "80"}, "points"),
    ):
        answer = handle({**req("coins", points=0, dealer_side=[0, 2]), "rules": rules, **bad})
        assert word in answer["error"], answer
    refused = handle({**req("coins", points=0, dealer_side=[0]), "rules": {"stake": -5}})
    assert "stake" in refused["error"]


@given(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    )
)
def test_any_json_id_is_echoed(rid: Any) -> None:
    good = handle({**req("level_change", points=40), "id": rid})
    assert good == {"id": rid, "team": "dealer", "levels": 1}
    bad = handle({**req("nope"), "id": rid})
    assert bad["id"] == rid and "error" in bad


def test_a_request_without_id_gets_a_null_id() -> None:
    r = req("level_change", points=0)
    del r["id"]
    assert handle(r) == {"id": None, "team": "dealer", "levels": 3}


@pytest.mark.parametrize("line", ["", "{", "nul", "[1,", '{"id": 1,}', "[" * 50_000, '"text"', "3", "null", "[]"])
def test_lines_that_are_not_requests_get_errors(line: str) -> None:
    out = handle_line(line)
    assert set(out) == {"id", "error"} and out["id"] is None


def test_serve_answers_every_line_and_keeps_reading() -> None:
    lines = [
        json.dumps(req("level_change", points=80)),
        "",
        "garbage",
        "   ",
        json.dumps(req("combos", cards=["S1"])),
        json.dumps({**req("winner", plays=[["SA"], ["SK"]]), "id": 7}),
        "[" * 10_000,
        json.dumps({**req("winner", plays=[]), "id": 8}),
        json.dumps({**req("legal", lead=["S3"], hand=["S4"], play=["S4"]), "id": "後"}),
    ]
    out = run_serve("\n".join(lines) + "\n")
    assert len(out) == 7, "blank lines are skipped, every other line is answered"
    assert out[0] == {"id": "t", "team": "attackers", "levels": 0}
    assert "error" in out[1] and "error" in out[2] and "S1" in out[2]["error"]
    assert out[3] == {"id": 7, "winner": 0}
    assert "error" in out[4] and out[5]["id"] == 8 and "error" in out[5]
    assert out[6] == {"id": "後", "legal": True, "reason": None}


def test_responses_are_one_line_and_not_ascii_escaped() -> None:
    out = io.StringIO()
    serve(io.StringIO(json.dumps({**req("combos", cards=["SA"]), "id": "黑桃A"}) + "\n"), out)
    assert out.getvalue().count("\n") == 1 and "黑桃A" in out.getvalue()


@pytest.mark.parametrize(
    "op,missing",
    [
        ("winner", "plays"),
        ("legal", "lead"),
        ("legal", "hand"),
        ("legal", "play"),
        ("throw", "throw"),
        ("throw", "hands"),
        ("combos", "cards"),
        ("kitty_multiplier", "play"),
        ("level_change", "points"),
        ("declare", "bids"),
    ],
)
def test_a_missing_field_is_named(op: str, missing: str) -> None:
    full = {
        "winner": {"plays": [["SA"], ["SK"]]},
        "legal": {"lead": ["SA"], "hand": ["SK"], "play": ["SK"]},
        "throw": {"throw": ["SA", "SK"], "hands": [["S2"]]},
        "combos": {"cards": ["SA"]},
        "kitty_multiplier": {"play": ["SA"]},
        "level_change": {"points": 40},
        "declare": {"bids": []},
    }[op]
    ok = handle(req(op, **full))
    assert "error" not in ok, ok
    broken = req(op, **{k: v for k, v in full.items() if k != missing})
    out = handle(broken)
    assert missing in out["error"], out


@pytest.mark.parametrize("key", ["level", "op"])
def test_missing_context_is_named(key: str) -> None:
    r = req("combos", cards=["SA"])
    del r[key]
    assert key in handle(r)["error"]


def test_context_options() -> None:
    cards = {"cards": ["S10", "S10", "SJ", "SJ"]}
    assert handle({**req("combos", **cards), "level": "10"})["combos"][0]["type"] == "pair"  # S10 is a trump
    assert handle({**req("combos", **cards), "level": "3"})["combos"][0]["type"] == "tractor"
    assert handle({**req("combos", **cards), "level": 3})["combos"][0]["type"] == "tractor"  # a number is fine
    assert handle({**req("combos", cards=["SK", "SK", "SA", "SA"]), "level": "A"})["combos"][0]["type"] == "pair"
    assert handle({**req("combos", cards=["HK", "HK", "SA", "SA"]), "level": "A"})["combos"][0]["type"] == "tractor"
    assert handle({**req("winner", plays=[["SA"], ["H2"]]), "trump": "h"})["winner"] == 1  # lower-case suit
    assert handle({**req("winner", plays=[["SA"], ["H2"]]), "trump": None})["winner"] == 0  # no-trump
    r = req("winner", plays=[["SA"], ["H2"]])
    del r["trump"]
    assert handle(r)["winner"] == 0, "no trump field: no-trump"
    r = req("level_change", points=40)
    del r["decks"]
    assert handle(r) == {"id": "t", "team": "dealer", "levels": 1}, "decks defaults to the rules' decks"


def test_card_notation_variants_are_read() -> None:
    out = handle(req("combos", cards=["st", " S10 ", "sj", "SJ"]))
    assert out["combos"] == [{"type": "tractor", "cards": ["S10", "S10", "SJ", "SJ"]}]


def test_rules_presets_and_settings() -> None:
    tractor = req("kitty_multiplier", play=["S3", "S3", "S4", "S4", "S6", "S6"])
    assert handle(tractor)["multiplier"] == 16
    assert handle({**tractor, "rules": "classic"})["multiplier"] == 16
    assert handle({**tractor, "rules": {"kitty_multiplier": "linear"}})["multiplier"] == 12
    assert handle({**tractor, "rules": {"preset": "classic", "kitty_multiplier": "fixed16"}})["multiplier"] == 16
    assert "kitty_multiplier" in handle({**tractor, "rules": {"kitty_multiplier": "cubic"}})["error"]


def test_winner_edge_cases() -> None:
    assert handle(req("winner", plays=[["SA"]])) == {"id": "t", "winner": 0}
    assert handle(req("winner", plays=[["S3", "S3"], ["S4", "S4"]]))["winner"] == 1
    assert "error" in handle(req("winner", plays=[["S3", "S3"], ["S4"]]))
    assert "error" in handle(req("winner", plays="SA"))


def test_legal_edge_cases() -> None:
    assert handle(req("legal", lead=["S3"], hand=["S4", "S5"], play=[])) == {"id": "t", "legal": False, "reason": "wrong_count"}
    assert handle(req("legal", lead=["S3"], hand=["S4"], play=["S9"]))["reason"] == "not_in_hand"


def test_the_judge_command() -> None:
    cmd = _judge_command()
    help_run = subprocess.run([*cmd, "--help"], capture_output=True, text=True, timeout=60)
    assert help_run.returncode == 0 and "JSON" in help_run.stdout
    run = subprocess.run(
        cmd, input=json.dumps(req("level_change", points=155)) + "\nnot json\n", capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0
    first, second = (json.loads(x) for x in run.stdout.splitlines())
    assert first == {"id": "t", "team": "attackers", "levels": 1} and "error" in second


def test_the_judge_command_answers_line_by_line() -> None:
    """An interactive client gets each answer before sending the next request (flushed output)."""
    proc = subprocess.Popen(_judge_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for points in (0, 45, 200):
            proc.stdin.write(json.dumps({**req("level_change", points=points), "id": points}) + "\n")
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            assert answer["id"] == points
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
    assert proc.returncode == 0


def test_python_module_entry() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tuolaji.cli", "judge"],
        input=json.dumps(req("combos", cards=["BJ"])),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(run.stdout) == {"id": "t", "combos": [{"type": "single", "cards": ["BJ"]}]}


# One value other than the default for every setting that is not a flag or a choice (those are
# tried whole below), with what it needs beside it; a new setting must be added here.
OTHER_VALUES: dict[str, dict[str, Any]] = {
    "name": {"name": "my table"},
    "description": {"description": "house rules"},
    "decks": {"decks": 3},
    "players": {"players": 6},
    "hand_size": {"hand_size": 24, "kitty_size": 12},
    "kitty_size": {"kitty_size": 8, "hand_size": 25},
    "redeal_request_max_points": {"redeal_request": True, "redeal_request_max_points": 15},
    "throw_penalty_points": {"throw_penalty": "points", "throw_penalty_points": 20},
    "stake": {"stake": 100},
    "level_cap": {"level_cap": 6},
    "must_defend": {"must_defend": ["5", "10"]},
    "match_target_level": {"match_target_level": "6"},
    "match_rounds": {"match_end": "fixed_rounds", "match_rounds": 8},
    "match_minutes": {"match_end": "timed", "match_minutes": 30},
    "start_level": {"start_level": "5"},
    "friends": {"partnership": "find_friend", "players": 6, "friends": 2},
}
NEEDS: dict[tuple[str, str], dict[str, Any]] = {  # a choice that only stands with another setting
    ("match_end", "fixed_rounds"): {"match_rounds": 8},
    ("match_end", "timed"): {"match_minutes": 30},
}


def _every_other_setting() -> list[dict[str, Any]]:
    import dataclasses
    from enum import StrEnum

    from tuolaji.ruleset import RuleSet

    default = RuleSet()
    out: list[dict[str, Any]] = []
    for f in dataclasses.fields(RuleSet):
        value = getattr(default, f.name)
        if isinstance(value, bool):
            out.append({f.name: not value})
        elif isinstance(value, StrEnum):
            out += [{f.name: o.value, **NEEDS.get((f.name, o.value), {})} for o in type(value) if o != value]
        else:
            assert f.name in OTHER_VALUES, f"a new setting {f.name!r}: give the judge test a value for it"
            out.append(OTHER_VALUES[f.name])
    return out


def test_the_judge_accepts_every_setting_in_its_rules_object() -> None:
    """Every setting a RuleSet takes, at a value other than its default, is taken by the judge's
    ``rules`` object, whatever the op; a bad value is refused naming the setting."""
    for spec in _every_other_setting():
        decks = spec.get("decks", 2)
        for request in (
            req("level_change", points=80),
            req("coins", points=80, dealer_side=[0]),
            req("match_result", levels=["3", "2"]),
            req("redeal", hand=["S3"]),
            req("winner", plays=[["S3"], ["S4"]]),
        ):
            got = handle({**request, "decks": decks, "rules": spec})
            assert "error" not in got, (spec, request["op"], got)
    bad = handle(req("level_change", points=80, rules={"stake": -1}))
    assert "stake" in bad["error"]
