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
