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


# ------------------------------------------------------------------ redeal and surrender (protocol 3)
# A program that logs what it is asked and says yes to a redeal, proposes to concede whenever the
# state allows it, and answers a partner's proposal as YES (a literal, so a test can break it).
YES_NO = """
    import json, os, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if "event" in msg:
            continue
        st = msg["state"]
        os.write(2, (json.dumps({"decision": msg["decision"], "protocol": msg["protocol"], "may_redeal": st["may_redeal"],
                                 "may_surrender": st["may_surrender"], "surrender_by": st["surrender_by"]}) + "\\n").encode())
        d = msg["decision"]
        if d == "redeal":
            ans = {"yes": True}
        elif d == "answer_surrender":
            ans = {"yes": YES}
        elif d == "play" and st["may_surrender"]:
            ans = {"surrender": True}
        elif d in ("declare", "play"):
            ans = {"cards": msg["legal"][0] if d == "play" else None}
        else:
            ans = {"cards": st["hand"][:st["kitty_size"]]}
        print(json.dumps({"id": msg["id"], **ans}), flush=True)
"""


def _yes_no_bot(tmp_path: Path, yes: str = "True") -> tuple[ExternalBot, Path]:
    name = "".join(c for c in yes if c.isalnum())
    log = tmp_path / f"asked_{name}.log"
    return ExternalBot(_script(tmp_path, f"yes_no_{name}.py", YES_NO.replace("YES", yes)), seed=1, log=log), log


def _asked(log: Path) -> list[dict[str, Any]]:
    return _messages(log)


def _round_at(rules_spec: dict[str, Any], until: Any, seed: int = 3) -> Any:
    """A round (dealer 0, level 2) driven by random legal actions until ``until(rnd)``."""
    import random

    from tuolaji.cards import new_deck
    from tuolaji.engine.round import Round
    from tuolaji.engine.simulate import random_action

    rules = load_rules(rules_spec)
    rng = random.Random(seed)
    deck = new_deck(rules.decks)
    rng.shuffle(deck)
    rnd = Round(rules=rules, deck=deck, level=2, dealer=0)
    while not until(rnd):
        rnd.apply(random_action(rnd, rng))
    return rnd


def test_an_external_program_is_asked_for_a_redeal_and_its_yes_redeals(tmp_path: Path) -> None:
    """暴动 (seed 000 C): at the last call an attacker whose hand may ask gets a ``redeal`` request
    (only then); its ``{"yes": true}`` asks for the redeal."""
    from tuolaji.bots.driver import decide
    from tuolaji.engine.actions import Pass, Redeal
    from tuolaji.engine.observation import observe
    from tuolaji.engine.round import Phase

    rnd = _round_at({"redeal_request": True, "redeal_request_max_points": 200}, lambda r: r.phase == Phase.DECLARE)
    rnd.apply(Pass(rnd.turn))  # the dealer passes; an attacker's turn
    seat = rnd.turn
    bot, log = _yes_no_bot(tmp_path)
    try:
        obs = observe(rnd, seat)
        assert obs.may_redeal
        action = decide(bot, obs)
        assert action == Redeal(seat) and bot.faults == 0
        rnd.apply(action)
        assert rnd.redeal
    finally:
        bot.close()
    asked = _asked(log)
    assert [a["decision"] for a in asked] == ["redeal"]
    assert asked[0]["may_redeal"] and asked[0]["protocol"] == 3


def test_an_external_program_proposes_to_concede_in_its_play_answer_and_answers_a_proposal(tmp_path: Path) -> None:
    """投降 (table rule ``surrender``): on a turn where the state says ``may_surrender`` the ``play``
    request is the only one sent, and ``{"surrender": true}`` proposes; the partner is asked
    ``answer_surrender`` and its ``yes`` decides."""
    from tuolaji.bots.driver import decide
    from tuolaji.engine.actions import Surrender, SurrenderAnswer
    from tuolaji.engine.observation import observe
    from tuolaji.engine.round import Phase

    for yes, ends in (("True", True), ("False", False)):
        rnd = _round_at({"surrender": True}, lambda r: r.phase == Phase.PLAY)
        seat = rnd.turn
        bot, log = _yes_no_bot(tmp_path, yes)
        try:
            obs = observe(rnd, seat)
            assert obs.may_surrender
            action = decide(bot, obs)
            assert action == Surrender(seat)
            rnd.apply(action)
            assert rnd.phase == Phase.SURRENDER
            partner = rnd.turn
            answer = decide(bot, observe(rnd, partner))
            assert answer == SurrenderAnswer(partner, ends) and bot.faults == 0
            rnd.apply(answer)
            assert (rnd.phase == Phase.DONE) == ends
        finally:
            bot.close()
        asked = _asked(log)
        assert [a["decision"] for a in asked] == ["play", "answer_surrender"]  # one request per turn
        assert asked[0]["may_surrender"] and asked[1]["surrender_by"] == seat


def test_a_play_answer_with_cards_is_played_without_asking_again(tmp_path: Path) -> None:
    from tuolaji.bots.driver import decide
    from tuolaji.engine.actions import Play
    from tuolaji.engine.observation import observe
    from tuolaji.engine.round import Phase

    rnd = _round_at({"surrender": True}, lambda r: r.phase == Phase.PLAY)
    seat = rnd.turn
    bot = ExternalBot(_script(tmp_path, "echo.py", ECHO), seed=1, log=tmp_path / "echo.log")
    try:
        action = decide(bot, observe(rnd, seat))
        assert isinstance(action, Play) and bot.faults == 0
        rnd.apply(action)
    finally:
        bot.close()
    assert [m["decision"] for m in _messages(tmp_path / "echo.log")] == ["play"]


def test_an_unreadable_yes_is_a_fault_and_the_fallback_answers(tmp_path: Path) -> None:
    from tuolaji.bots.driver import decide
    from tuolaji.engine.actions import Surrender, SurrenderAnswer
    from tuolaji.engine.observation import observe
    from tuolaji.engine.round import Phase

    rnd = _round_at({"surrender": True}, lambda r: r.phase == Phase.PLAY)
    rnd.apply(Surrender(rnd.turn))
    bot, _ = _yes_no_bot(tmp_path, '"maybe"')
    try:
        partner = rnd.turn
        answer = decide(bot, observe(rnd, partner))
        assert isinstance(answer, SurrenderAnswer)  # the heuristic's answer
        assert bot.fault_reasons == {"unreadable: bad yes": 1}
    finally:
        bot.close()


def test_example_bot_answers_redeal_and_surrender_questions_without_faults() -> None:
    rules = load_rules({"surrender": True, "redeal_request": True, "redeal_request_max_points": 40})
    for index in range(2):
        r = play_deal(f"cmd:{sys.executable} {EXAMPLE}", "heuristic", rules, 5, index)
        assert r.a.faults == 0 and r.a.illegal == 0
