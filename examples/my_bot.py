#!/usr/bin/env python3
"""A tiny external Tractor bot: reads one JSON request per line, answers one JSON line.

Run it in a tournament with:  tuolaji sim --bot 'cmd:python examples/my_bot.py' --bot random
It uses only the standard library, so it doubles as a template for bots in other languages.
Strategy: never declare; bury the lowest plain cards; play the lowest legal option offered.
"""

import json
import sys

RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


def strength(card: str, state: dict) -> int:
    """Rough card strength: plain cards by rank, trumps above them, jokers on top."""
    if card in ("LJ", "BJ"):
        return 40 if card == "LJ" else 41
    suit, rank = card[0], RANKS[card[1:]]
    level = RANKS[state["level"]]
    if rank == level:
        return 38 if suit == state["trump"] else 37
    return rank + (20 if suit == state["trump"] else 0)


def decide(req: dict) -> list | None:
    state = req["state"]
    if req["decision"] == "declare":
        return None  # pass
    if req["decision"] == "bury":
        hand = sorted(state["hand"], key=lambda c: strength(c, state))
        return hand[: state["kitty_size"]]
    options = req["legal"]
    return min(options, key=lambda cards: sum(strength(c, state) for c in cards))


def main() -> None:
    for line in sys.stdin:
        req = json.loads(line)
        print(json.dumps({"id": req["id"], "cards": decide(req)}), flush=True)


if __name__ == "__main__":
    main()
