#!/usr/bin/env python3
"""A tiny external Tractor bot: reads one JSON message per line, answers each request with one line.

Run it in a tournament with:  tuolaji sim --bot 'cmd:python examples/my_bot.py' --bot random
It uses only the standard library, so it doubles as a template for bots in other languages.
Strategy: declare the offered declaration whose suit is longest in hand (five cards or more);
bury the lowest plain cards; play the lowest legal option offered, ties broken by the game's seed;
ask for every redeal the rules offer, never concede a round (nor agree to a partner's proposal).
What it writes to standard error lands in the log file that `tuolaji sim` names.
"""

import json
import random
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


def declare(req: dict) -> list | None:
    """One of the legal declarations offered (they may include a backing joker), or None to pass."""
    hand = req["state"]["hand"]

    def suit_length(cards: list) -> int:
        suits = {c[0] for c in cards if c not in ("LJ", "BJ")}
        return max((sum(1 for c in hand if c[0] == s) for s in suits), default=0)  # 0: a no-trump joker pair

    best = max(req["legal"], key=suit_length)
    return best if suit_length(best) >= 5 else None


def decide(req: dict, rng: random.Random) -> list | None:
    state = req["state"]
    if req["decision"] == "declare":
        return declare(req)
    if req["decision"] == "bury":
        hand = sorted(state["hand"], key=lambda c: strength(c, state))
        return hand[: state["kitty_size"]]
    if req["decision"] == "call_friend":
        return ["HA"]
    options = req["legal"]
    rng.shuffle(options)
    return min(options, key=lambda cards: sum(strength(c, state) for c in cards))


def main() -> None:
    rng = random.Random()
    game = None
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("event") == "game_over":  # a notice: no answer
            result = msg["result"] or {}
            print(f"game {msg['game']} over: {result.get('team')} +{result.get('levels')}", file=sys.stderr)
            continue
        if msg["game"] != game:  # a new game: reseed, so a game replays the same from its seed
            game = msg["game"]
            rng.seed(msg["seed"])
        if msg["decision"] in ("redeal", "answer_surrender"):  # yes/no questions (protocol 3)
            print(json.dumps({"id": msg["id"], "yes": msg["decision"] == "redeal"}), flush=True)
            continue
        print(json.dumps({"id": msg["id"], "cards": decide(msg, rng)}), flush=True)


if __name__ == "__main__":
    main()
