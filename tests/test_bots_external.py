"""External bots over JSON lines: the example plays cleanly; broken programs fall back."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from tuolaji.bots.external import ExternalBot
from tuolaji.ruleset import load_rules
from tuolaji.sim.runner import external_log, play_deal, play_match_pair

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


# A bot that logs every message it gets to standard error (one JSON line each) and answers
# with the first legal option: the tests read the log to see what reached the program.
ECHO = """
    import json, os, sys
    for line in sys.stdin:
        msg = json.loads(line)
        # one write per line: the seats' programs share the log file, and print() may write a
        # line and its newline separately, so two programs' lines could run together
        os.write(2, (json.dumps({"pid": os.getpid(), **{k: v for k, v in msg.items() if k != "state"},
                                 "hand": msg.get("state", {}).get("hand")}) + "\\n").encode())
        if "event" in msg:
            continue
        d = msg["decision"]
        cards = (msg["legal"][0] if d in ("declare", "play") else
                 msg["state"]["hand"][:msg["state"]["kitty_size"]] if d == "bury" else ["HA"])
        print(json.dumps({"id": msg["id"], "cards": cards}), flush=True)
"""


def _messages(log: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]


def test_declare_request_lists_joker_backed_declarations_and_they_stand(tmp_path: Path) -> None:
    """Bianfeng rules: a declaration shows level cards with a backing joker. The request lists
    them, and the program's answer (a legal option) is accepted, not refused as non-identical."""
    rules = load_rules("bianfeng-fixed")
    spec = "cmd:" + _script(tmp_path, "echo.py", ECHO)
    declared = 0
    for index in range(6):
        r = play_deal(spec, "heuristic", rules, 3, index, ext_log_dir=str(tmp_path))
        assert r.a.faults == 0, r.a.fault_reasons
        assert r.a.illegal == 0
    msgs = _messages(Path(external_log(str(tmp_path), spec)))
    declares = [m for m in msgs if m.get("decision") == "declare"]
    assert declares and all(m["legal"] for m in declares), "a declare request always offers options"
    for m in declares:
        for option in m["legal"]:
            assert any(c in ("LJ", "BJ") for c in option), option  # joker-backed (or a joker pair)
        declared += 1
    assert declared > 0


def test_external_declaration_validated_against_the_legal_options() -> None:
    from tuolaji.bots.external import declaration_reason
    from tuolaji.cards import parse_cards
    from tuolaji.engine.actions import Deal
    from tuolaji.engine.observation import observe
    from tuolaji.engine.round import Round
    from tuolaji.sim.runner import duplicate_deck

    rules = load_rules("bianfeng-fixed")
    deck, level, dealer = duplicate_deck(rules, 5, 0)
    rnd = Round(rules=rules, deck=deck, level=level, dealer=dealer)
    while rnd.phase.value == "deal" and not any(observe(rnd, s).declaration_options() for s in range(4)):
        rnd.apply(Deal())
    seat = next(s for s in range(4) if observe(rnd, s).declaration_options())
    obs = observe(rnd, seat)
    option = obs.declaration_options()[0]
    assert len(set(option)) == 2, "joker-backed: level card(s) and a joker"
    assert declaration_reason(obs, option) is None
    assert declaration_reason(obs, tuple(c for c in option if c < 52)) is not None  # the joker is required
    assert declaration_reason(obs, tuple(parse_cards(["BJ", "BJ", "BJ"]))) is not None


def test_one_process_per_seat_per_match_with_seeds_and_game_over(tmp_path: Path) -> None:
    """A full match: each seat's program plays every round of it, is told when each game ends,
    and gets a seed per game that is the same when the match is replayed."""
    spec = "cmd:" + _script(tmp_path, "echo.py", ECHO)
    seen: list[list[tuple[int, int]]] = []
    for run in range(2):
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        m = play_match_pair(spec, "random", RULES, 4, 0, max_rounds=3, ext_log_dir=str(folder))
        assert m.a.faults == 0
        msgs = _messages(Path(external_log(str(folder), spec)))
        pids = {m["pid"] for m in msgs}
        assert len(pids) == 4, "two seats of A in each of the match pair's two matches"
        for pid in pids:
            mine = [m for m in msgs if m["pid"] == pid]
            overs = [m for m in mine if m.get("event") == "game_over"]
            assert [o["game"] for o in overs] == list(range(len(overs))) and len(overs) >= 2
            assert all(o["result"] is None or o["result"]["team"] in ("dealer", "attackers") for o in overs)
            seeds = {(m["game"], m["seed"]) for m in mine if "decision" in m}
            assert len({s for _, s in seeds}) == len({g for g, _ in seeds}) >= 2, "one seed per game"
        seen.append(sorted((m["game"], m["seed"]) for m in msgs if "decision" in m))
    assert seen[0] == seen[1], "the same tournament seed gives the program the same seeds"


def _faulty_deal(cmd: str, timeout: float = 0.3, kinds: set[str] | None = None) -> tuple[int, int]:
    r = play_deal(f"cmd:{cmd}", "random", RULES, 2, 0, ext_timeout=timeout)
    assert all(g.attacker_points >= 0 for g in r.games)  # the table went on to the end
    assert r.a.faults == sum(r.a.fault_reasons.values())
    if kinds is not None:  # every fault is reported with its reason, of the expected kinds
        assert {why.split(":")[0] for why in r.a.fault_reasons} == kinds, r.a.fault_reasons
    return r.a.faults, r.a.illegal


def test_crashing_bot_falls_back(tmp_path: Path) -> None:
    cmd = _script(
        tmp_path,
        "crash.py",
        """
        import sys
        sys.stdin.readline()
        sys.exit(3)
    """,
    )
    faults, illegal = _faulty_deal(cmd, timeout=10, kinds={"crash"})  # room for a slow start on a busy machine
    assert faults > 0 and illegal == 0


def test_slow_bot_times_out_and_falls_back(tmp_path: Path) -> None:
    cmd = _script(
        tmp_path,
        "slow.py",
        """
        import json, sys, time
        n = 0
        for line in sys.stdin:
            n += 1
            req = json.loads(line)
            if n in (3, 40):
                # too slow for this decision; the answer arrives late and is skipped. Far slower
                # than the timeout: a loaded machine that leaves the waiting side unscheduled for
                # a while could otherwise find the answer in time
                time.sleep(2.0)
            print(json.dumps({"id": req["id"], "cards": None if req["decision"] == "declare" else
                              (req["legal"][0] if req["decision"] == "play" else req["state"]["hand"][:8])}),
                  flush=True)
    """,
    )
    faults, illegal = _faulty_deal(cmd, kinds={"timeout"})
    assert faults > 0 and illegal == 0


def test_garbage_and_illegal_answers_fall_back(tmp_path: Path) -> None:
    cmd = _script(
        tmp_path,
        "liar.py",
        """
        import json, sys
        for i, line in enumerate(sys.stdin):
            req = json.loads(line)
            if i % 3 == 0:
                print("this is not json", flush=True)
            elif i % 3 == 1:
                print(json.dumps({"id": req["id"], "cards": ["S2", "S2", "S2", "BJ"]}), flush=True)
            else:
                print(json.dumps({"id": req["id"], "cards": ["XX"]}), flush=True)
    """,
    )
    faults, illegal = _faulty_deal(cmd, timeout=10, kinds={"unreadable", "illegal"})
    assert faults > 0 and illegal == 0


def test_missing_program_falls_back() -> None:
    bot = ExternalBot("/nonexistent/program --flag", seed=1)
    assert bot.faults == 1 and not bot.alive
    assert list(bot.fault_reasons) == ["crash: cannot start"]
    faults, illegal = _faulty_deal("/nonexistent/program")
    assert faults >= 1 and illegal == 0


def test_illegal_play_reason_names_the_rule(tmp_path: Path) -> None:
    cmd = _script(
        tmp_path,
        "nothand.py",
        """
        import json, sys
        for line in sys.stdin:
            req = json.loads(line)
            if "event" in req:
                continue
            d = req["decision"]
            hand = req["state"]["hand"]
            cards = None if d == "declare" else hand[:req["state"]["kitty_size"]] if d == "bury" else ["BJ"] * 3
            print(json.dumps({"id": req["id"], "cards": cards}), flush=True)
    """,
    )
    r = play_deal(f"cmd:{cmd}", "random", RULES, 2, 0)
    assert set(r.a.fault_reasons) == {"illegal: play not_in_hand"}


def test_sim_names_the_log_file_and_reports_fault_reasons(tmp_path: Path, capsys: Any) -> None:
    from tuolaji.sim.cli import build_parser, main

    cmd = _script(
        tmp_path,
        "talker.py",
        """
        import json, sys
        print("hello from the bot", file=sys.stderr, flush=True)
        for i, line in enumerate(sys.stdin):
            req = json.loads(line)
            if "event" in req:
                continue
            print("not json" if i == 0 else json.dumps({"id": req["id"], "cards": None}), flush=True)
    """,
    )
    spec = f"cmd:{cmd}"
    assert main(["--bot", spec, "--bot", "random", "--deals", "1", "--json", "--bot-log", str(tmp_path / "logs")]) == 0
    report = json.loads(capsys.readouterr().out)
    log = Path(report["external_logs"][spec])
    assert log.parent == tmp_path / "logs" and "hello from the bot" in log.read_text()
    reasons = report["pairings"][0]["external_fault_reasons"]["a"]
    assert reasons["unreadable: not JSON"] >= 1 and any(k.startswith("illegal: play") for k in reasons)
    assert build_parser().parse_args(["a", "b"]).bot_timeout >= 10, "room for a search bot on a loaded machine"


def test_close_ends_the_program_and_closes_its_pipes(tmp_path: Path) -> None:
    bot = ExternalBot(_script(tmp_path, "echo.py", ECHO), seed=1)
    proc = bot._proc
    assert proc is not None and proc.poll() is None
    bot.close()
    assert proc.returncode is not None, "the program still runs"
    assert proc.stdin is not None and proc.stdin.closed
    assert proc.stdout is not None and proc.stdout.closed
    bot.close()  # a second close does nothing
