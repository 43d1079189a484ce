"""``tuolaji demo``: four computer players play a whole match, printed round by round."""

from __future__ import annotations

import argparse

from rich.console import Console

from .bots.registry import make_bot
from .cards import level_index, pretty
from .engine.actions import Action
from .engine.events import (
    Buried,
    Declared,
    Event,
    FriendCalled,
    FriendRevealed,
    KittyTaken,
    Played,
    RedealRequested,
    Redealt,
    RoundEnded,
    TrickEnded,
    TrumpFixed,
)
from .engine.match import Match, MatchEnded, RoundStarted
from .ruleset import RuleSetError, load_rules
from .scoring import level_name

SEATS4 = ("North", "East", "South", "West")  # seats 0..3 in play order; N-S (0, 2) are team A
SEATS: tuple[str, ...] = SEATS4
SUIT_WORD = {0: "♠ spades", 1: "♥ hearts", 2: "♣ clubs", 3: "♦ diamonds", None: "no-trump"}


def _cards(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(pretty(c) for c in cards)


def _holder(match: Match, index: int) -> str:
    """Who a level belongs to: a team, or a seat when levels are kept per player."""
    return SEATS[index] if match.per_seat else f"team {'AB'[index]}"


class Printer:
    def __init__(self, console: Console, *, tricks: bool = True, max_rounds: int | None = None) -> None:
        self.console = console
        self.max_rounds = max_rounds
        self.tricks = tricks
        self.seen = 0
        self.line: list[str] = []
        self.redeal_granted = False  # a player's redeal (暴动) was printed; the round's Redealt follows

    def __call__(self, match: Match, action: Action) -> None:
        for ev in match.events[self.seen :]:
            self.show(match, ev)
        self.seen = len(match.events)

    def show(self, match: Match, ev: Event) -> None:
        out = self.console.print
        if isinstance(ev, RoundStarted):
            if self.max_rounds is not None and ev.number > self.max_rounds:
                return  # the demo stops before this round
            lv = ", ".join(f"{_holder(match, t)} at {level_name(x)}" for t, x in enumerate(ev.levels))
            dealer = "decided by the first declaration" if ev.dealer is None else SEATS[ev.dealer]
            out(f"\n[bold]Round {ev.number}[/bold] — playing {level_name(level_index(ev.level))}; {lv}; dealer: {dealer}")
        elif isinstance(ev, Declared):
            out(f"  {SEATS[ev.seat]} declares {_cards(ev.cards)} → {SUIT_WORD[ev.trump]}")
        elif isinstance(ev, Redealt):
            if not self.redeal_granted:  # a granted redeal said so already
                out("  Nobody declared: the cards are dealt again.")
            self.redeal_granted = False
        elif isinstance(ev, TrumpFixed):
            how = {"declared": "", "override": " (overridden after the bury)"}.get(
                ev.source, f" (no declaration: {ev.source.replace('_', ' ')})"
            )
            out(f"  Trump: [bold]{SUIT_WORD[ev.trump]}[/bold]{how}; {SEATS[ev.dealer]} deals and takes the kitty")
        elif isinstance(ev, KittyTaken):
            pass
        elif isinstance(ev, RedealRequested):
            out(f"  {SEATS[ev.seat]} holds almost no points and asks for a redeal (暴动): granted, the cards are dealt again")
            self.redeal_granted = True
        elif isinstance(ev, FriendCalled):
            copy = f"copy {ev.nth} of " if ev.nth else ""
            out(f"  {SEATS[ev.seat]} calls {copy}{pretty(ev.card)}: whoever it names is a friend")
        elif isinstance(ev, FriendRevealed):
            out(
                f"  Call {ev.call + 1} finds no friend: the dealer's side is smaller"
                if ev.seat is None
                else f"  {SEATS[ev.seat]} plays the called card: the dealer's friend"
            )
        elif isinstance(ev, Buried):
            out(f"  {SEATS[ev.seat]} buries {len(ev.cards or ())} cards")
        elif isinstance(ev, Played):
            text = f"{SEATS[ev.seat][0]}:{_cards(ev.cards)}"
            if ev.attempted is not None:
                text += f" (throw {_cards(ev.attempted)} failed)"
            self.line.append(text)
        elif isinstance(ev, TrickEnded):
            if self.tricks:
                n = len(match.round.tricks) if match.round.tricks else len(match.rounds[-1].tricks)
                pts = f", {ev.points} pts" if ev.points else ""
                out(f"  {n:2d}. {'  '.join(self.line)}  → {SEATS[ev.winner]}{pts} (attackers {ev.attacker_points})")
            self.line = []
        elif isinstance(ev, RoundEnded):
            kitty = f"kitty {_cards(ev.kitty)} = {ev.kitty_points} pts"
            if ev.kitty_captured:
                kitty += f", captured ×{ev.multiplier}"
            out(f"  Attackers: {ev.trick_points} in tricks; {kitty}; total [bold]{ev.attacker_points}[/bold]")
            if ev.team == "dealer":
                out(f"  Dealer's team goes up {ev.levels}.")
            elif ev.levels:
                out(f"  Attackers take over and go up {ev.levels}.")
            else:
                out("  Attackers take over the deal.")
        elif isinstance(ev, MatchEnded):
            if ev.winner is None:  # a tie nobody reached first (seed 003's rule cannot break it)
                out("\n[bold green]The match is a draw.[/bold green]")
            else:
                out(f"\n[bold green]{_holder(match, ev.winner)} wins the match.[/bold green]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tuolaji demo", description="Computer players play a whole match.")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (random if omitted)")
    parser.add_argument("--rules", default=None, help="preset name or settings file (JSON)")
    parser.add_argument("--bot", default="heuristic", help="computer player for every seat")
    parser.add_argument("--rounds", type=int, default=200, help="stop after this many rounds")
    parser.add_argument("--quiet-tricks", action="store_true", help="do not print each trick")
    parser.add_argument("--record", default=None, help="save the game record to this file")
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    try:
        rules = load_rules(args.rules)
        match = Match(rules=rules, seed=args.seed)
    except RuleSetError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    from .bots.driver import Table

    global SEATS
    SEATS = SEATS4 if rules.players == 4 else tuple(f"Seat {s}" for s in range(rules.players))
    console.print(f"tuolaji demo — rules: {rules.name}, seed {match.seed}")
    bots = [make_bot(args.bot, seed=(match.seed or 0) * 4 + s) for s in range(rules.players)]
    printer = Printer(console, tricks=not args.quiet_tricks, max_rounds=args.rounds)
    table = Table(match, bots, on_action=printer)
    printer(match, None)  # type: ignore[arg-type]
    table.play_match(max_rounds=args.rounds)
    if not match.over:
        why = (
            " (levels wrap past A in these rules: the match has no end of its own)"
            if (rules.match_end.value == "wrap" and rules.match_target_level is None)
            else ""
        )
        console.print(f"\nStopped after {len(match.rounds)} rounds (--rounds {args.rounds}){why}.")
    if args.record:
        from .record import dumps

        with open(args.record, "w", encoding="utf-8") as fh:
            fh.write(dumps(match))
        console.print(f"record saved to {args.record}")
    return 0
