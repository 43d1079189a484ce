"""Kitty multiplier, level change, next dealer and levels (RULES.md §6, §7)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import LevelIndex
from .combos import Combo
from .ruleset import KittyMultiplier, RuleSet, ScoringTable, ThrowPenalty

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def level_name(level_index: LevelIndex) -> str:
    if level_index == len(LEVELS):
        return "王"  # 打王, the no-trump level after A (seed 000 H, setting joker_level)
    return LEVELS[level_index] if 0 <= level_index < len(LEVELS) else f"A+{level_index - 12}"


def parse_level(token: str) -> LevelIndex:
    if type(token) is str and token in _LEVEL_INDEX:  # the usual spellings by one look-up
        return _LEVEL_INDEX[token]
    t = str(token).strip().upper()
    if t == "T":
        t = "10"
    if t not in LEVELS:
        raise ValueError(f"bad level {token!r}: use 2-10, J, Q, K or A")
    return LevelIndex(LEVELS.index(t))


_LEVEL_INDEX = {name: LevelIndex(i) for i, name in enumerate(LEVELS)}


def combo_multiplier(comp: Combo, mode: KittyMultiplier) -> int:
    k, m = comp.k, comp.m
    if k == 1:
        return 2
    if mode == KittyMultiplier.EXPONENTIAL:
        return 2 * int(k**m)
    if mode == KittyMultiplier.LINEAR:
        return 2 * k * m if m > 1 else 2 * k
    if mode == KittyMultiplier.FIXED16:
        return 16 if m > 1 else 2 * k
    if mode == KittyMultiplier.FLAT8:
        return 8 if m > 1 else 2 * k
    return 2 * k * m  # BY_SIZE: two times the cards in the combination


def kitty_multiplier(lead_comps: Sequence[Combo], mode: KittyMultiplier = KittyMultiplier.EXPONENTIAL) -> int:
    """Multiplier set by the highest shape of the last trick's lead, and by it alone: more copies
    first, then the longer chain (seed 000 A: a Titanic, then a triple, then a tractor, "且不再計算其他
    牌型"), so a triple with a tractor counts x6. A throw counts its highest shape only."""
    top = max(lead_comps, key=lambda c: (c.k, c.m))
    return combo_multiplier(top, mode)


def max_kitty_multiplier(cards: int, rules: RuleSet) -> int:
    """The largest multiplier a last lead of at most ``cards`` cards can set under ``rules``."""
    shapes = [(k, m) for k in range(1, rules.decks + 1) for m in range(1, cards // k + 1) if k > 1 or m == 1]
    return max((combo_multiplier(Combo(k, m, 0, ()), rules.kitty_multiplier) for k, m in shapes), default=0)


def level_change(points: int, rules: RuleSet) -> tuple[str, int]:
    """``("dealer" | "attackers", levels)`` for the attackers' total."""
    unit = threshold_unit(rules)  # 40 per two decks (seed 000 A)
    if rules.scoring_table == ScoringTable.FINE:
        team, levels = _fine_table(points, unit)
    elif points <= 0:
        team, levels = "dealer", 3
    elif points < unit:
        team, levels = "dealer", 2
    elif points < 2 * unit:
        team, levels = "dealer", 1
    else:
        team, levels = "attackers", (points - 2 * unit) // unit
    if rules.level_cap is not None:
        levels = min(levels, rules.level_cap)
    return team, levels


def threshold_unit(rules: RuleSet) -> int:
    """Points per level step: 40 with two decks, scaled per deck unless ``scale_with_decks`` is off."""
    return 20 * rules.decks if rules.scale_with_decks else 40


def surrender_total(points: int, conceded: str, rules: RuleSet) -> int:
    """投降 (table rule ``surrender``): the attackers' total for a conceded round. The points so far
    count, moved if need be so that the other side wins: when the dealers concede, at least the total
    that takes the deal (80 with two decks); when the attackers concede, at most 5 below it."""
    take_over = 2 * threshold_unit(rules)
    return max(points, take_over) if conceded == "dealer" else min(points, take_over - 5)


def _fine_table(points: int, unit: int) -> tuple[str, int]:
    # seed 004: 0 -> +6, 5-10 -> +5, 15-20 -> +4, 25-30 -> +3, 35 -> +2 (scaled to 40-point units)
    step = unit // 8
    if points >= 2 * unit:
        return "attackers", (points - 2 * unit) // unit
    if points >= unit:
        return "dealer", 1
    if points <= 0:
        return "dealer", 6
    if points <= 2 * step:
        return "dealer", 5
    if points <= 4 * step:
        return "dealer", 4
    if points <= 6 * step:
        return "dealer", 3
    return "dealer", 2


def match_leader(levels: Sequence[int], reached: Sequence[int]) -> int | None:
    """Who wins a match ended by its clock or its round count: the highest level, a tie going to
    whoever reached that level first (seed 003: "哪方的級別高哪方獲勝，如到了規定時間，雙方級數相同，
    則先到該級的一方勝出"). ``reached`` is the round each reached its level in, 0 for the start level.
    None, a draw, when that still leaves several: both sides at the start level, which neither
    reached first, or (find-a-friend, per seat) partners who climbed to it in the same round."""
    key = [(level, -when) for level, when in zip(levels, reached, strict=True)]
    best = max(key)
    ahead = [h for h, k in enumerate(key) if k == best]
    return ahead[0] if len(ahead) == 1 else None


def round_coins(
    rules: RuleSet, *, dealer_side: Sequence[int], team: str, levels: int, overrides: int, failed_throws: Sequence[int]
) -> tuple[int, ...]:
    """Coins each seat wins (+) or pays (-) for a round; ``()`` when the table plays without a stake.

    The round is worth the stake (底金) per level the winners gain, a take-over without a level
    counting one; with ``override_count_multiplies_stake`` each override doubles it (seed 004:
    "反主3次则最后结果的金币数需×2^3"). Every player of the larger side wins or pays that much and the
    smaller side shares the same total (a dealer alone against three wins or pays three times),
    so the coins of a round add up to zero; odd coins go to the lowest seats. A failed throw then
    costs its thrower half the stake, paid to nobody (seeds 000 C, 004: "扣除當前房間底金的1/2").
    """
    stake = rules.stake
    players = len(failed_throws)
    if stake <= 0 or not players:
        return ()
    worth = stake * max(levels, 1)
    if rules.override_count_multiplies_stake:
        worth <<= overrides
    on_dealer_side = set(dealer_side)
    winners = [s for s in range(players) if (s in on_dealer_side) == (team == "dealer")]
    losers = [s for s in range(players) if s not in winners]
    coins = [0] * players
    if winners and losers:
        larger, smaller, sign = (winners, losers, 1) if len(winners) >= len(losers) else (losers, winners, -1)
        for s in larger:
            coins[s] += sign * worth
        share, odd = divmod(worth * len(larger), len(smaller))
        for i, s in enumerate(smaller):
            coins[s] -= sign * (share + (1 if i < odd else 0))
    if rules.throw_penalty == ThrowPenalty.STAKE:
        for s, n in enumerate(failed_throws):
            coins[s] -= n * (stake // 2)
    return tuple(coins)
