"""Who plays with whom, in one place.

Every bot asks these helpers instead of doing seat arithmetic, so a variant with hidden
partnerships (find a friend) only has to change this module.
"""

from __future__ import annotations

from collections.abc import Callable

IsAttacker = Callable[[int], bool]


def same_side(is_attacker: IsAttacker, a: int, b: int) -> bool:
    """Are seats ``a`` and ``b`` on the same side (both attackers or both the dealer's team)?"""
    return is_attacker(a) == is_attacker(b)
