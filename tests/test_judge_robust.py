"""The judge answers every line exactly once, whatever the line holds (issue 15, finding 2)."""

from __future__ import annotations

import json
import subprocess
import sys

from tuolaji.judge import handle_line

GOOD = b'{"id":3,"op":"combos","level":"2","cards":["SA"]}'


def _judge(stdin: bytes) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "tuolaji.cli", "judge"], input=stdin, capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    assert b"Traceback" not in run.stderr
    return [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]


def test_a_lone_surrogate_id_is_answered_and_the_judge_goes_on() -> None:
    lines = [
        b'{"id":"\\ud800","op":"combos","level":"2","cards":["SA"]}',  # the line that killed it
        b"\xff\xfe not utf-8 \xc3",
        b'{"id":2,"op":["combos"],"level":"2","cards":["SA"]}',
        b"[" * 5000,
        b'{"id":"\\udfff","op":"\\udfff"}',
        GOOD,
    ]
    answers = _judge(b"\n".join(lines) + b"\n")
    assert len(answers) == len(lines)  # exactly one answer per line, in order
    assert answers[0]["id"] == "\ud800" and answers[0]["combos"][0]["type"] == "single"
    assert answers[1] == {"id": None, "error": "the line is not UTF-8 text"}
    assert answers[2]["id"] == 2 and answers[2]["error"].startswith("unknown op")
    assert "TypeError" not in answers[2]["error"]
    assert "deep" in answers[3]["error"]
    assert answers[4]["error"].startswith("unknown op")
    assert answers[5] == {"id": 3, "combos": [{"type": "single", "cards": ["SA"]}]}


def test_an_op_given_as_a_list_or_object_is_an_unknown_op() -> None:
    for op in (["combos"], {"a": 1}, 3, None):
        answer = handle_line(json.dumps({"id": 1, "op": op, "level": "2", "cards": ["SA"]}))
        assert answer["error"].startswith("unknown op"), answer


def test_a_remembered_context_never_answers_for_a_request_it_would_refuse() -> None:
    """The judge remembers the rules and trump of requests it answered; the same values spelt
    with another JSON type (null for an absent field, true for 1, "2" for 2) are read afresh."""
    ok = {"op": "winner", "level": 2, "trump": "S", "plays": [["S3"], ["S4"]]}
    assert handle_line(json.dumps(ok))["winner"] == 1
    assert handle_line(json.dumps({**ok, "decks": 2}))["winner"] == 1
    assert "decks" in handle_line(json.dumps({**ok, "decks": None}))["error"]
    assert "decks" in handle_line(json.dumps({**ok, "decks": True}))["error"]
    one = {**ok, "decks": 1}
    assert handle_line(json.dumps(one))["winner"] == 1
    assert "decks" in handle_line(json.dumps({**one, "decks": True}))["error"]
    assert handle_line(json.dumps({**ok, "level": "2"}))["winner"] == 1
    assert "level" in handle_line(json.dumps({**ok, "level": True}))["error"]
    assert "trump" in handle_line(json.dumps({**ok, "trump": 0}))["error"]
    no_trump = handle_line(json.dumps({**ok, "trump": None, "plays": [["S3"], ["D4"]]}))
    assert no_trump["winner"] == 0
