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


def test_a_remembered_settings_object_answers_only_for_the_same_settings() -> None:
    """Settings objects of plain values are remembered by their items: the same settings answer
    the same (in any order), a value of another JSON type or another value is read afresh."""
    ask = {"op": "surrender", "level": "2", "points": 30, "conceded": "dealer"}
    for _ in range(2):  # the second time from memory
        assert handle_line(json.dumps({**ask, "rules": {"surrender": True}}))["points"] == 80
        assert handle_line(json.dumps({**ask, "rules": {"surrender": True, "decks": 3}}))["points"] == 120
        assert handle_line(json.dumps({**ask, "rules": {"decks": 3, "surrender": True}}))["points"] == 120
        assert "true or false" in handle_line(json.dumps({**ask, "rules": {"surrender": 1}}))["error"]
        assert "conceding" in handle_line(json.dumps({**ask, "rules": {"surrender": False}}))["error"]
        assert "integer" in handle_line(json.dumps({**ask, "rules": {"surrender": True, "stake": 1.0}}))["error"]
        nested = handle_line(json.dumps({**ask, "rules": {"surrender": True, "stake": [100]}}))
        assert "stake" in nested["error"]


def test_a_line_is_read_as_json_reads_it() -> None:
    """Whitespace around the document, a byte-order mark, extra data and bad JSON: the answers
    say what json.loads would."""
    good = '{"id":5,"op":"combos","level":"2","cards":["SA"]}'
    for line in (good, good + "\n", " \t" + good + " \r\n", good.encode()):
        assert handle_line(line)["combos"] == [{"type": "single", "cards": ["SA"]}]
    assert handle_line(good + " 1")["error"] == "not valid JSON: Extra data at line 1 column 51"
    assert "Extra data" in handle_line(good + "\x0b")["error"]  # not JSON whitespace
    assert "Expecting" in handle_line('{"id":5,')["error"]
    assert "BOM" in handle_line("\ufeff" + good)["error"]
    assert "deep" in handle_line("[" * 100 + "]" * 100)["error"]
