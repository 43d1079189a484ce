"""External bots: a program in any language plays a seat over JSON lines on stdin/stdout.

The table writes one request per decision (``{"id", "decision", "seat", "game", "seed",
"state", "legal"}``) and reads one line back (``{"id", "cards"}``, or ``{"id", "yes"}`` for the
yes/no decisions ``redeal`` and ``answer_surrender``; a ``play`` answer may be ``{"id",
"surrender": true}`` where the state says ``may_surrender``); after each game it writes a
``game_over`` notice that needs no answer. docs/bots.md has the protocol. One process plays
one seat for a whole match (every round of it); it never sees another seat's cards.

A bot that is slow (no answer within ``timeout`` seconds), crashed, or answers garbage or an
illegal action is replaced for that decision by a fallback bot (the heuristic by default), and
the fault is counted with its reason in ``fault_reasons``; a crashed program is not restarted,
its seat goes on with the fallback. The program's standard error goes to ``log`` if given.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import shlex
import subprocess
import threading
import time
from collections import Counter
from typing import Any

from ..cards import CardError, cards_str, level_index, parse_cards, suit_letter
from ..engine.events import RoundEnded
from ..engine.legal import lead_combos
from ..engine.observation import Observation, PublicTrick
from ..scoring import level_name
from ..tricks import follow_reason, is_sub_multiset
from .base import Bot
from .registry import make_bot
from .tactics import TrickState, follow_options

PROTOCOL = 3  # 3: redeal / answer_surrender decisions, surrender in a play answer, may_* in the state


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
        "level": level_name(level_index(obs.level)),  # "2".."10", "J".."A", or "王" (打王)
        "dealer": obs.dealer,
        "attackers": [s for s in range(obs.players) if obs.is_attacker(s)],
        "trump": suit_letter(trump),
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
        # what the rules let this seat do now: declare (000 C), ask for a redeal (暴动), propose to
        # concede (投降); and whose proposal to concede awaits this seat's answer
        "may_declare": obs.may_declare,
        "may_redeal": obs.may_redeal,
        "may_surrender": obs.may_surrender,
        "surrender_by": obs.surrender_by,
        # find-a-friend: the dealer's calls so far; a call's seat only once it has shown
        "friends": obs.rules.friends_value if obs.rules.partnership == "find_friend" else 0,
        "friend_calls": [
            {"card": cards_str([card])[0], "nth": nth, "shown": shown, "seat": seat}
            for (card, nth), seat, shown in zip(obs.friend_calls, obs.friend_seats, obs.calls_shown, strict=True)
        ],
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


DEFAULT_TIMEOUT = 10.0  # seconds: a search bot's 2 s cap, several times over, on a loaded machine

# Fault kinds, the first word of every reason: what went wrong, for the tournament report.
TIMEOUT, CRASH, UNREADABLE, ILLEGAL = "timeout", "crash", "unreadable", "illegal"


def game_seed(seed: int | None, game: int) -> int:
    """The seed the program gets for its ``game``-th game (reproducible from the bot's seed)."""
    return random.Random(f"{seed}/{game}").getrandbits(32)


def declaration_reason(obs: Observation, cards: tuple[int, ...]) -> str | None:
    """Why showing ``cards`` is not one of the declarations the seat may make now, or None."""
    if sorted(cards) in (sorted(o) for o in obs.declaration_options()):
        return None
    if not is_sub_multiset(cards, obs.hand):
        return "not_in_hand"
    from ..declaring import read_bid

    try:
        read_bid(obs.seat, cards, obs.level, obs.rules)
    except ValueError as exc:
        return f"not_a_declaration ({exc})"
    return "would_not_stand"


def _show(cards: tuple[int, ...] | None) -> str:
    return "none" if cards is None else " ".join(cards_str(cards)) or "no cards"


class ExternalBot(Bot):
    name = "external"

    def __init__(
        self,
        command: str,
        *,
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        fallback: str = "heuristic",
        log: str | os.PathLike[str] | None = None,
    ) -> None:
        self.command = command
        self.seed = seed
        self.timeout = timeout
        self.fallback = make_bot(fallback, seed=seed)
        self.fault_reasons: Counter[str] = Counter()  # "kind: why" -> count
        self.fault_log: list[str] = []  # the first few faults in full
        self.game = 0  # games (rounds) finished by this process
        self.log = None if log is None else str(log)
        self._next_id = 0
        self._play_answer: tuple[Observation, dict[str, Any] | None] | None = None  # asked by surrender()
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._proc: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        stderr: Any = subprocess.DEVNULL
        if self.log is not None:
            stderr = open(self.log, "a", encoding="utf-8")  # noqa: SIM115 - the child keeps it open
            stderr.write(f"# tuolaji: started {command!r} (seed {seed})\n")
            stderr.flush()
        try:
            self._proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1
            )
        except OSError as exc:
            self._fault(CRASH, "cannot start", f"{command!r}: {exc}")
            return
        finally:
            if stderr is not subprocess.DEVNULL:
                stderr.close()
        self._reader = threading.Thread(target=self._read, args=(self._proc,), daemon=True)
        self._reader.start()

    @property
    def faults(self) -> int:
        return sum(self.fault_reasons.values())

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        with contextlib.suppress(ValueError, OSError):  # close() closed the pipe under a stuck read
            for line in proc.stdout:
                self._lines.put(line)
        self._lines.put(None)  # end of output: the program exited

    def _fault(self, kind: str, why: str, detail: str = "") -> None:
        """Count a fault under ``kind: why`` (few distinct keys); keep the details of the first ones."""
        self.fault_reasons[f"{kind}: {why}"] += 1
        if len(self.fault_log) < 20:
            self.fault_log.append(f"{kind}: {why}" + (f" ({detail})" if detail else ""))

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _send(self, msg: dict[str, Any]) -> bool:
        proc = self._proc
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(json.dumps(msg, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def _ask(self, decision: str, obs: Observation, legal: list[tuple[int, ...]] | None = None) -> tuple[bool, Any]:
        """Send one request; (True, cards or None) on a readable answer, (False, None) on a fault."""
        ans = self._request(decision, obs, legal)
        return (False, None) if ans is None else self._cards(ans)

    def _request(self, decision: str, obs: Observation, legal: list[tuple[int, ...]] | None = None) -> dict[str, Any] | None:
        """Send one request; the program's answer to it (a JSON object), or None on a fault."""
        if not self.alive:
            if self._proc is not None:
                self._fault(CRASH, "the program is not running")
            return None
        self._next_id += 1
        rid = self._next_id
        req: dict[str, Any] = {
            "protocol": PROTOCOL,
            "id": rid,
            "decision": decision,
            "seat": obs.seat,
            "game": self.game,
            "seed": game_seed(self.seed, self.game),
            "state": observation_to_dict(obs),
        }
        if legal is not None:
            req["legal"] = [cards_str(p) for p in legal]
        if not self._send(req):
            self._fault(CRASH, "the program closed its input")
            return None
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self._fault(TIMEOUT, f"no answer within {self.timeout:g} s", f"request {rid}, {decision}")
                return None
            if line is None:
                self._lines.put(None)
                code = self._proc.poll() if self._proc is not None else None
                self._fault(CRASH, "the program exited", f"exit status {code}")
                return None
            try:
                ans = json.loads(line)
            except json.JSONDecodeError:
                self._fault(UNREADABLE, "not JSON", repr(line[:80]))
                return None
            if not isinstance(ans, dict):
                self._fault(UNREADABLE, "not a JSON object", repr(line[:80]))
                return None
            if ans.get("id") != rid:
                continue  # a late answer to an earlier, timed-out request
            return ans

    def _cards(self, ans: dict[str, Any]) -> tuple[bool, Any]:
        """An answer's cards: (True, cards or None), or (False, None) when they cannot be read (a fault)."""
        cards = ans.get("cards")
        if cards is None:
            return True, None
        try:
            if not isinstance(cards, list):
                raise CardError(f"cards must be a list, not {cards!r:.40}")
            return True, tuple(parse_cards(cards))
        except CardError as exc:
            self._fault(UNREADABLE, "bad cards", str(exc))
            return False, None

    def _yes(self, ans: dict[str, Any] | None, key: str) -> bool | None:
        """A yes/no answer under ``key`` (absent: no); None on a fault, the fallback then decides."""
        if ans is None:
            return None
        yes = ans.get(key, False)
        if not isinstance(yes, bool):
            self._fault(UNREADABLE, f"bad {key}", f"{key} must be true or false, not {yes!r:.40}")
            return None
        return yes

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        legal = obs.declaration_options()
        if not legal:  # nothing would stand: no need to ask (during the deal, most cards)
            return None
        ok, cards = self._ask("declare", obs, legal)
        if ok and cards:
            why = declaration_reason(obs, cards)
            if why is None:
                return tuple(cards)
            self._fault(ILLEGAL, f"declaration {why.split(' (')[0]}", f"{_show(cards)}: {why}")
        elif ok:
            return None
        return self.fallback.declare(obs)

    def bury(self, obs: Observation) -> tuple[int, ...]:
        ok, cards = self._ask("bury", obs)
        if ok:
            if cards is None or len(cards) != obs.kitty_size:
                got = 0 if cards is None else len(cards)
                self._fault(ILLEGAL, "bury wrong_count", f"{got} cards, not {obs.kitty_size}")
            elif not is_sub_multiset(cards, Counter(obs.hand)):
                self._fault(ILLEGAL, "bury not_in_hand", _show(cards))
            else:
                return tuple(cards)
        return self.fallback.bury(obs)

    def play(self, obs: Observation) -> tuple[int, ...]:
        pending, self._play_answer = self._play_answer, None
        if pending is not None and pending[0] is obs:  # surrender() asked already: one request per turn
            ans = pending[1]
            ok, cards = (False, None) if ans is None else self._cards(ans)
        else:
            ok, cards = self._ask("play", obs, legal_hint(obs))
        if ok:
            why = "empty_play" if cards is None else play_reason(obs, tuple(cards))
            if why is None and cards is not None:
                return tuple(cards)
            self._fault(ILLEGAL, f"play {why}", _show(cards))
        return self.fallback.play(obs)

    def surrender(self, obs: Observation) -> bool:
        """投降: the ``play`` request of a turn on which the seat may propose to concede; the program
        answers ``{"surrender": true}`` to propose, or cards to play (kept for :meth:`play`)."""
        if not obs.may_surrender:
            return False
        ans = self._request("play", obs, legal_hint(obs))
        self._play_answer = (obs, ans)
        if ans is None:
            return self.fallback.surrender(obs)
        yes = self._yes(ans, "surrender")
        return self.fallback.surrender(obs) if yes is None else yes

    def answer_surrender(self, obs: Observation) -> bool:
        """A partner proposed to concede (``state.surrender_by``): ``{"yes": true}`` agrees."""
        yes = self._yes(self._request("answer_surrender", obs), "yes")
        return self.fallback.answer_surrender(obs) if yes is None else yes

    def redeal(self, obs: Observation) -> bool:
        """At the last call, a hand the rules let ask for a redeal (``state.may_redeal``) that did not
        declare: ``{"yes": true}`` asks."""
        yes = self._yes(self._request("redeal", obs), "yes")
        return self.fallback.redeal(obs) if yes is None else yes

    def call_friend(self, obs: Observation) -> int:
        ok, cards = self._ask("call_friend", obs)
        if ok:
            if cards and len(cards) == 1:
                return int(cards[0])
            self._fault(ILLEGAL, "friend card not_one_card", _show(cards))
        return self.fallback.call_friend(obs)

    def game_over(self, seat: int, result: RoundEnded | None) -> None:
        """Tell the program the game (round) is over, with its result; no answer is read."""
        if self.alive:
            self._send(
                {
                    "protocol": PROTOCOL,
                    "event": "game_over",
                    "game": self.game,
                    "seat": seat,
                    "result": None if result is None else result.to_dict(),
                }
            )
        self.game += 1

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
        if self._reader is not None:  # the program has exited: its output ends, and so does the reader
            self._reader.join(timeout=1.0)
            self._reader = None
        if proc.stdout is not None and not proc.stdout.closed:
            with contextlib.suppress(OSError):
                proc.stdout.close()
        self._proc = None


__all__ = [
    "ExternalBot",
    "observation_to_dict",
    "legal_hint",
    "play_reason",
    "declaration_reason",
    "game_seed",
    "PROTOCOL",
    "DEFAULT_TIMEOUT",
    "TrickState",
]
