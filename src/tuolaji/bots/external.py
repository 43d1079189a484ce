"""External bots: a program in any language plays a seat over JSON lines on stdin/stdout.

The table writes one request per decision (``{"id", "decision", "seat", "state", "legal"}``)
and reads one line back (``{"id", "cards"}``); docs/bots.md has the protocol. A bot that is
slow (no answer within ``timeout`` seconds), crashed, or answers garbage or an illegal play
is replaced for that decision by a fallback bot (the heuristic by default), and the fault is
counted in ``faults``; a crashed program is not restarted, its seat goes on with the fallback.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections import Counter
from typing import Any

from ..cards import CardError, card_str, cards_str, parse_cards
from ..engine.legal import lead_combos
from ..engine.observation import Observation, PublicTrick
from ..tricks import follow_reason, is_sub_multiset
from .base import Bot
from .registry import make_bot
from .tactics import TrickState, follow_options

PROTOCOL = 1


def _trick(t: PublicTrick) -> dict[str, Any]:
    return {
        "leader": t.leader,
        "plays": [{"seat": s, "cards": cards_str(p)} for s, p in zip(t.seats, t.plays, strict=False)],
        "winner": t.winner,
        "points": t.points,
        "attempted": None if t.attempted is None else cards_str(t.attempted),
    }


def observation_to_dict(obs: Observation) -> dict[str, Any]:
    """The JSON form of what a seat sees (nothing hidden from it is in here)."""
    trump = obs.ctx.trump
    return {
        "seat": obs.seat,
        "players": obs.players,
        "phase": obs.phase.value,
        "turn": obs.turn,
        "level": card_str(obs.level - 2)[1:],  # the level rank as text: "2".."10", "J".."A"
        "dealer": obs.dealer,
        "attackers": [s for s in range(obs.players) if obs.is_attacker(s)],
        "trump": None if trump is None else "SHCD"[trump],
        "trump_fixed": obs.trump_fixed,
        "bid": None if obs.bid_seat is None else {"seat": obs.bid_seat, "cards": cards_str(obs.bid_cards)},
        "hand": cards_str(obs.ctx.sort(list(obs.hand))),
        "hand_sizes": list(obs.hand_sizes),
        "kitty": None if obs.kitty is None else cards_str(obs.kitty),
        "kitty_size": obs.kitty_size,
        "trick": None if obs.trick is None else _trick(obs.trick),
        "tricks": [_trick(t) for t in obs.tricks],
        "attacker_points": obs.attacker_points,
        "rules": obs.rules.to_dict() if obs.rules is not None else None,
    }


def legal_hint(obs: Observation) -> list[tuple[int, ...]]:
    """Legal plays to offer the program: every single-combination lead, or the follows
    (all of them when there are at most a few hundred, else a varied selection)."""
    trick = obs.trick
    if trick is None or not trick.plays:
        return sorted({tuple(sorted(p)) for p in lead_combos(obs.hand, obs.ctx)})
    from .heuristic import trick_state

    return sorted(follow_options(trick_state(obs)))


def play_reason(obs: Observation, cards: tuple[int, ...]) -> str | None:
    """Why a play is illegal from what the seat sees (throws are checked later by the engine)."""
    if not cards:
        return "empty_play"
    if not is_sub_multiset(cards, obs.hand):
        return "not_in_hand"
    trick = obs.trick
    if trick is None or not trick.plays:
        eff = obs.ctx.eff
        return None if all(eff[c] == eff[cards[0]] for c in cards) else "mixed_suits"
    return follow_reason(trick.plays[0], obs.hand, cards, obs.ctx)


class ExternalBot(Bot):
    name = "external"

    def __init__(self, command: str, *, seed: int | None = None, timeout: float = 5.0,
                 fallback: str = "heuristic") -> None:
        self.command = command
        self.timeout = timeout
        self.fallback = make_bot(fallback, seed=seed)
        self.faults = 0
        self.fault_log: list[str] = []
        self._next_id = 0
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._proc: subprocess.Popen[str] | None = None
        try:
            self._proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as exc:
            self._fault(f"cannot start {command!r}: {exc}")
            return
        threading.Thread(target=self._read, args=(self._proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self._lines.put(line)
        self._lines.put(None)  # end of output: the program exited

    def _fault(self, why: str) -> None:
        self.faults += 1
        if len(self.fault_log) < 20:
            self.fault_log.append(why)

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _ask(self, decision: str, obs: Observation, legal: list[tuple[int, ...]] | None = None) -> tuple[bool, Any]:
        """Send one request; (True, cards or None) on a readable answer, (False, None) on a fault."""
        if not self.alive:
            if self._proc is not None:
                self._fault("the program is not running")
            return False, None
        self._next_id += 1
        rid = self._next_id
        req: dict[str, Any] = {"protocol": PROTOCOL, "id": rid, "decision": decision, "seat": obs.seat,
                               "state": observation_to_dict(obs)}
        if legal is not None:
            req["legal"] = [cards_str(p) for p in legal]
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(req, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._fault("the program closed its input")
            return False, None
        import time

        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self._fault(f"no answer to request {rid} within {self.timeout}s")
                return False, None
            if line is None:
                self._fault("the program exited")
                self._lines.put(None)
                return False, None
            try:
                ans = json.loads(line)
            except json.JSONDecodeError:
                self._fault(f"not JSON: {line[:80]!r}")
                return False, None
            if not isinstance(ans, dict):
                self._fault(f"not an object: {line[:80]!r}")
                return False, None
            if ans.get("id") != rid:
                continue  # a late answer to an earlier, timed-out request
            cards = ans.get("cards")
            if cards is None:
                return True, None
            try:
                return True, tuple(parse_cards(cards))
            except CardError as exc:
                self._fault(f"bad cards: {exc}")
                return False, None

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        ok, cards = self._ask("declare", obs)
        if ok and cards and (any(c != cards[0] for c in cards) or not is_sub_multiset(cards, Counter(obs.hand))):
            self._fault(f"impossible declaration {cards!r}")
            ok = False
        if not ok:
            return self.fallback.declare(obs)
        return cards or None

    def bury(self, obs: Observation) -> tuple[int, ...]:
        ok, cards = self._ask("bury", obs)
        if ok and cards is not None and len(cards) == obs.kitty_size and is_sub_multiset(cards, Counter(obs.hand)):
            return tuple(cards)
        if ok:
            self._fault(f"illegal bury {cards!r}")
        return self.fallback.bury(obs)

    def play(self, obs: Observation) -> tuple[int, ...]:
        ok, cards = self._ask("play", obs, legal_hint(obs))
        if ok and cards is not None and play_reason(obs, tuple(cards)) is None:
            return tuple(cards)
        if ok:
            self._fault(f"illegal play {cards!r}")
        return self.fallback.play(obs)

    def call_friend(self, obs: Observation) -> int:
        ok, cards = self._ask("call_friend", obs)
        if ok and cards and len(cards) == 1:
            return int(cards[0])
        if ok:
            self._fault(f"bad friend card {cards!r}")
        return self.fallback.call_friend(obs)

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        self._proc = None


__all__ = ["ExternalBot", "observation_to_dict", "legal_hint", "play_reason", "PROTOCOL", "TrickState"]
