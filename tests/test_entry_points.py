"""The command-line entry points, run in-process: ``tuolaji`` dispatch, ``--version``, ``demo``,
``judge`` on stdin/stdout, ``sim``, and ``python -m tuolaji``."""

from __future__ import annotations

import io
import json
import runpy
import sys
from pathlib import Path

import pytest

from tuolaji import __version__
from tuolaji.cli import main
from tuolaji.record import loads


def test_help_version_and_an_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(cmd in out for cmd in ("play", "serve", "demo", "judge", "sim"))
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"tuolaji {__version__}"
    assert main(["nonsense"]) == 2
    assert "unknown command 'nonsense'" in capsys.readouterr().err


def test_demo_plays_a_whole_match_and_saves_its_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "demo.json"
    assert main(["demo", "--seed", "3", "--bot", "random", "--quiet-tricks", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "seed 3" in out
    match = loads(record.read_text(encoding="utf-8"))
    assert match.over and match.winner is not None
    assert main(["demo", "--rules", "no-such-preset"]) == 2


def test_judge_answers_lines_on_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [json.dumps({"id": 1, "op": "level_change", "decks": 2, "level": "5", "trump": "H", "points": 155}), "not json"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["judge"]) == 0
    answers = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(answers) == 2
    assert answers[0] == {"id": 1, "team": "attackers", "levels": 1}
    assert "error" in answers[1]


def test_sim_runs_a_small_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "random", "random", "--deals", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report


def test_python_dash_m_tuolaji(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["tuolaji", "--version"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module("tuolaji", run_name="__main__")
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"tuolaji {__version__}"
