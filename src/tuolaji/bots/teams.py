"""Who plays with whom, in one place.

Every bot asks these helpers instead of doing seat arithmetic, so a variant with hidden
partnerships (find a friend) only has to change this module.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..engine.observation import Observation

IsAttacker = Callable[[int], bool]


def same_side(is_attacker: IsAttacker, a: int, b: int) -> bool:
    """Are seats ``a`` and ``b`` on the same side (both attackers or both the dealer's team)?"""
    return is_attacker(a) == is_attacker(b)


def hidden_friend(obs: Observation, seat: int, hand: Collection[int]) -> bool:
    """Find-a-friend: does ``seat``, holding ``hand``, know it is a friend nobody has seen yet?

    It holds a copy of a card called by holder (not by the copy played) whose friend has not
    shown. The dealer calls a card it holds a copy of whenever it can (:func:`.base.default_friend_card`
    and the search's candidates), so the holder of the other copy is the partner; the dealer
    holding no copy (about 2 % of calls in self-play) is the exception, where the nearest
    holder after the dealer is.
    """
    if seat == obs.dealer or obs.friend_known:
        return False
    calls = zip(obs.friend_calls, obs.calls_shown, strict=True)
    return any(not nth and not shown and card in hand for (card, nth), shown in calls)


def believed_sides(obs: Observation, seat: int | None = None, hand: Collection[int] | None = None) -> IsAttacker:
    """The sides as ``seat`` (default: the observer) sees them holding ``hand`` (default: its
    hand): the public sides, except that a hidden friend knows it plays for the dealer."""
    me = obs.seat if seat is None else seat
    if not obs.friend_calls or not hidden_friend(obs, me, obs.hand if hand is None else hand):
        return obs.is_attacker
    public = obs.is_attacker
    return lambda s: s != me and public(s)


_PUBLIC: dict[tuple[int, tuple[int, ...]], Callable[[int, int], bool]] = {}


def public_side_table(obs: Observation) -> Callable[[int, int], bool]:
    """:func:`same_side_table` of the public sides (``obs.is_attacker``), one per table size
    and publicly known dealer's side (an observation of a round without a dealer: none)."""
    key = (obs.players, obs.known_dealer_side if obs.dealer is not None else (-1,))
    got = _PUBLIC.get(key)
    if got is None:
        if len(_PUBLIC) >= 1024:
            _PUBLIC.clear()
        got = _PUBLIC[key] = same_side_table(obs.is_attacker, obs.players)
    return got


def believed_side_table(obs: Observation) -> tuple[IsAttacker, Callable[[int, int], bool]]:
    """:func:`believed_sides` of the observer and its :func:`same_side_table`."""
    is_attacker = believed_sides(obs)
    if obs.friend_calls and hidden_friend(obs, obs.seat, obs.hand):
        return is_attacker, same_side_table(is_attacker, obs.players)
    return is_attacker, public_side_table(obs)


def same_side_table(is_attacker: IsAttacker, players: int) -> Callable[[int, int], bool]:
    """:func:`same_side` for a fixed ``is_attacker``, answered from a table of the seats' sides
    (one decision asks it many times)."""
    attacks = tuple(is_attacker(s) for s in range(players))
    return lambda a, b: attacks[a] == attacks[b]
