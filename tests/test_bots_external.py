"""External bots over JSON lines: the example plays cleanly; broken programs fall back."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from tuolaji.bots.external import ExternalBot
from tuolaji.ruleset import load_rules
from tuolaji.sim.runner import play_deal

RULES = load_rules(None)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "my_bot.py"


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path}"


def test_example_bot_plays_a_deal_without_faults() -> None:
    r = play_deal(f"cmd:{sys.executable} {EXAMPLE}", "random", RULES, 1, 0)
    assert r.a.faults == 0 and r.a.illegal == 0 and r.b.illegal == 0
    assert len(r.games) == 2


def _faulty_deal(cmd: str, timeout: float = 0.3) -> tuple[int, int]:
    r = play_deal(f"cmd:{cmd}", "random", RULES, 2, 0, ext_timeout=timeout)
    assert all(g.attacker_points >= 0 for g in r.games)  # the table went on to the end
    return r.a.faults, r.a.illegal


def test_crashing_bot_falls_back(tmp_path: Path) -> None:
    cmd = _script(tmp_path, "crash.py", """
        import sys
        sys.stdin.readline()
        sys.exit(3)
    """)
    faults, illegal = _faulty_deal(cmd)
    assert faults > 0 and illegal == 0


def test_slow_bot_times_out_and_falls_back(tmp_path: Path) -> None:
    cmd = _script(tmp_path, "slow.py", """
        import json, sys, time
        n = 0
        for line in sys.stdin:
            n += 1
            req = json.loads(line)
            if n in (3, 40):
                time.sleep(0.6)  # too slow for this decision; the answer arrives late and is skipped
            print(json.dumps({"id": req["id"], "cards": None if req["decision"] == "declare" else
                              (req["legal"][0] if req["decision"] == "play" else req["state"]["hand"][:8])}),
                  flush=True)
    """)
    faults, illegal = _faulty_deal(cmd)
    assert faults > 0 and illegal == 0


def test_garbage_and_illegal_answers_fall_back(tmp_path: Path) -> None:
    cmd = _script(tmp_path, "liar.py", """
        import json, sys
        for i, line in enumerate(sys.stdin):
            req = json.loads(line)
            if i % 3 == 0:
                print("this is not json", flush=True)
            elif i % 3 == 1:
                print(json.dumps({"id": req["id"], "cards": ["S2", "S2", "S2", "BJ"]}), flush=True)
            else:
                print(json.dumps({"id": req["id"], "cards": ["XX"]}), flush=True)
    """)
    faults, illegal = _faulty_deal(cmd)
    assert faults > 0 and illegal == 0


def test_missing_program_falls_back() -> None:
    bot = ExternalBot("/nonexistent/program --flag", seed=1)
    assert bot.faults == 1 and not bot.alive
    faults, illegal = _faulty_deal("/nonexistent/program")
    assert faults >= 1 and illegal == 0
