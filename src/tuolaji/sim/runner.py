"""Playing tournament games: one duplicate deal (two games, teams swapped) or one match pair.

Everything a game needs is derived from ``(seed, index)``, so a deal gives the same result
whichever process or machine plays it, in whatever order.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..bots.base import Bot
from ..bots.driver import Game, SoloRound, Table
from ..bots.external import DEFAULT_TIMEOUT, ExternalBot
from ..bots.oracle import OracleBot
from ..bots.registry import make_bot
from ..cards import LevelRank, new_deck
from ..engine.actions import Action
from ..engine.match import Match
from ..engine.observation import Observation
from ..engine.round import Phase, Round
from ..ruleset import RuleSet
from .latency import Histogram


@dataclass
class SideStats:
    latency: Histogram = field(default_factory=Histogram)
    illegal: int = 0
    faults: int = 0  # external bots: timeouts, crashes, unreadable answers, illegal answers
    fault_reasons: Counter[str] = field(default_factory=Counter)  # "kind: why" -> count

    def add_faults(self, bot: Bot) -> None:
        if isinstance(bot, ExternalBot) and bot.fault_reasons:
            self.faults += sum(bot.fault_reasons.values())
            self.fault_reasons.update(bot.fault_reasons)


def seat_seed(seed: int, index: int, game: int, seat: int) -> int:
    return ((seed * 1_000_003 + index) * 8 + game) * 16 + seat


def make_bots(
    spec_a: str,
    spec_b: str,
    a_seats: Sequence[int],
    players: int,
    seed: int,
    index: int,
    game: int,
    ext_timeout: float = DEFAULT_TIMEOUT,
    ext_log_dir: str | None = None,
) -> list[Bot]:
    return [
        make_side_bot(spec_a if s in a_seats else spec_b, seat_seed(seed, index, game, s), ext_timeout, ext_log_dir)
        for s in range(players)
    ]


def make_side_bot(spec: str, seed: int, ext_timeout: float = DEFAULT_TIMEOUT, ext_log_dir: str | None = None) -> Bot:
    """A registered bot by spec, or ``cmd:COMMAND`` for an external program (its standard error
    appended to ``external_log(ext_log_dir, spec)`` when a folder is given)."""
    if spec.startswith("cmd:"):
        from ..bots.external import ExternalBot

        log = None if ext_log_dir is None else external_log(ext_log_dir, spec)
        return ExternalBot(spec[4:], seed=seed, timeout=ext_timeout, log=log)
    return make_bot(spec, seed=seed)


def external_log(folder: str, spec: str) -> str:
    """The file an external bot's standard error goes to: one per bot spec in ``folder``."""
    import os
    import re

    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", spec[4:] if spec.startswith("cmd:") else spec).strip("_")[:60]
    return os.path.join(folder, f"{slug or 'bot'}.stderr.log")


def game_over(bots: Sequence[Bot], rnd: Round) -> None:
    """Tell every bot the game is over (external programs get a ``game_over`` notice)."""
    for seat, bot in enumerate(bots):
        bot.game_over(seat, rnd.result)


def close_bots(bots: Sequence[Bot]) -> None:
    for b in bots:
        if isinstance(b, ExternalBot):  # the one bot that holds a process
            b.close()


class Stepper(Table[Game]):
    """The bots' :class:`~tuolaji.bots.driver.Table`, timing each decision and counting refusals
    per side. Bots that want the whole round (the oracle only) get it through ``see_round``
    before every decision."""

    def __init__(self, game: Game, bots: Sequence[Bot], side_of: Sequence[SideStats], rng: random.Random) -> None:
        super().__init__(game, bots, rng=rng)
        self.side_of = list(side_of)

    def ask(self, seat: int, obs: Observation, *, timed: bool) -> Action | None:
        """The bot's answer; ``timed`` decisions go into the latency figures (not the per-card
        declaration polls during the deal, which would swamp them with near-zero times)."""
        bot = self.bots[seat]
        if isinstance(bot, OracleBot):
            bot.see_round(self.game.round)
        t0 = time.perf_counter()
        action = super().ask(seat, obs, timed=timed)
        if timed:
            self.side_of[seat].latency.add(time.perf_counter() - t0)
        return action

    def refused(self, seat: int) -> None:
        super().refused(seat)
        self.side_of[seat].illegal += 1


def duplicate_deck(rules: RuleSet, seed: int, index: int) -> tuple[tuple[int, ...], LevelRank, int]:
    """The cards, level rank and dealer of deal ``index``: the same for both games of the pair."""
    rng = random.Random(seed * 1_000_003 + index)
    deck = new_deck(rules.decks)
    rng.shuffle(deck)
    level = LevelRank(rng.randrange(2, 15))
    return tuple(deck), level, index % rules.players


@dataclass
class GameRecord:
    a_attacks: bool
    a_levels: int  # levels A's side gained (negative: B's side gained them)
    attacker_points: int
    kitty_captured: bool
    redeal: bool = False
    kitty_points: int = 0  # what the kitty added to the attackers' total (multiplied; 0 if not captured)
    # find-a-friend: the sides formed in play put bots of A and of B on the same side; such a game
    # says nothing about A against B and counts as a tie (a_levels 0, no point margin, no kitty record)
    mixed: bool = False


@dataclass
class DealResult:
    index: int
    games: list[GameRecord]
    a: SideStats
    b: SideStats

    @property
    def a_level_gain(self) -> int:
        return sum(g.a_levels for g in self.games)

    def a_point_margin(self) -> int:
        """A's attacker points minus B's with the same cards (the duplicate tie-break)."""
        return sum(g.attacker_points if g.a_attacks else -g.attacker_points for g in self.games if not g.mixed)


def a_seats_for(game: int, players: int) -> list[int]:
    """Seats of side A: the even seats in the first game, the odd ones in the second."""
    return [s for s in range(players) if s % 2 == game % 2]


def play_deal(
    spec_a: str,
    spec_b: str,
    rules: RuleSet,
    seed: int,
    index: int,
    ext_timeout: float = DEFAULT_TIMEOUT,
    ext_log_dir: str | None = None,
) -> DealResult:
    """One duplicate deal: two games, each a match of one round with fresh bots (a program that
    remembered the first game's cards would know every hand in the second)."""
    deck, level, dealer = duplicate_deck(rules, seed, index)
    a, b = SideStats(), SideStats()
    games: list[GameRecord] = []
    for g in range(2):
        seats_a = a_seats_for(g, rules.players)
        bots = make_bots(spec_a, spec_b, seats_a, rules.players, seed, index, g, ext_timeout, ext_log_dir)
        rnd = Round(rules=rules, deck=deck, level=level, dealer=dealer)
        side_of = [a if s in seats_a else b for s in range(rules.players)]
        stepper = Stepper(SoloRound(rnd), bots, side_of, random.Random(seat_seed(seed, index, g, 15)))
        try:
            while rnd.phase != Phase.DONE:
                stepper.step()
            game_over(bots, rnd)
        finally:
            close_bots(bots)
        for bot, side in zip(bots, side_of, strict=True):
            side.add_faults(bot)
        games.append(_record(rnd, seats_a))
    return DealResult(index, games, a, b)


def _record(rnd: Round, seats_a: Sequence[int]) -> GameRecord:
    res = rnd.result
    if res is None:  # a redeal (only possible without a dealer): no score
        return GameRecord(False, 0, 0, False, redeal=True)
    a_attacks = rnd.is_attacker(seats_a[0])
    a_wins = (res.team == "attackers") == a_attacks
    # with fixed partners A's seats always share a side; in find-a-friend the call decides the sides
    # (the dealer's partner sits beside the dealer in two deals of three), and a side holding bots of
    # both A and B cannot credit either
    mixed = any((rnd.is_attacker(s) == a_attacks) != (s in seats_a) for s in range(rnd.players))
    return GameRecord(
        a_attacks,
        0 if mixed else res.levels if a_wins else -res.levels,
        res.attacker_points,
        res.kitty_captured,
        kitty_points=res.kitty_points * res.multiplier if res.kitty_captured else 0,
        mixed=mixed,
    )


@dataclass
class MatchResult:
    index: int
    a_won: list[bool | None]  # per game of the pair; None: a draw
    rounds: int
    a: SideStats
    b: SideStats


def play_match_pair(
    spec_a: str,
    spec_b: str,
    rules: RuleSet,
    seed: int,
    index: int,
    ext_timeout: float = DEFAULT_TIMEOUT,
    max_rounds: int = 300,
    ext_log_dir: str | None = None,
) -> MatchResult:
    """The same match seed played twice, A's bots on the even seats then on the odd ones. Each
    seat's bot (an external program: one process) plays every round of its match."""
    a, b = SideStats(), SideStats()
    won: list[bool | None] = []
    rounds = 0
    for g in range(2):
        seats_a = a_seats_for(g, rules.players)
        bots = make_bots(spec_a, spec_b, seats_a, rules.players, seed, index, g + 2, ext_timeout, ext_log_dir)
        match = Match(rules=rules, seed=seed * 1_000_003 + index)
        side_of = [a if s in seats_a else b for s in range(rules.players)]
        stepper = Stepper(match, bots, side_of, random.Random(seat_seed(seed, index, g + 2, 15)))
        try:
            while not match.over and len(match.rounds) < max_rounds:
                done = len(match.rounds)
                stepper.step()
                if len(match.rounds) > done:
                    game_over(bots, match.rounds[-1])
        finally:
            close_bots(bots)
        for bot, side in zip(bots, side_of, strict=True):
            side.add_faults(bot)
        rounds += len(match.rounds)
        a_team = seats_a[0] % 2
        if not match.over:  # hit the round cap: the higher level wins, equal levels draw
            ahead = match.levels[a_team] - match.levels[1 - a_team]
            won.append(None if ahead == 0 else ahead > 0)
        else:
            won.append(None if match.drawn else match.winner == a_team)
    return MatchResult(index, won, rounds, a, b)
