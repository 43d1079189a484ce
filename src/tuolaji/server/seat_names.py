"""Seat names as the viewer sees the table, the same as the browser's (web/static/js/seats.js).

The viewer sits at the bottom and the others follow counter-clockwise in the order of play. In
Chinese players say 我, 下家 (on the right, next to play), 对家 (across), 上家 (on the left); in
English the compass with the viewer at South. A spectator sees seat 0 at the bottom, by compass.
Names a player chose always win; other table sizes are numbered.
"""

from __future__ import annotations

from collections.abc import Sequence

BY_SCREEN = {
    "zh": {"seated": ("我", "下家", "对家", "上家"), "watching": ("南家", "东家", "北家", "西家")},
    "en": {"seated": ("South", "East", "North", "West"), "watching": ("South", "East", "North", "West")},
}


def seat_name(seat: int, viewer: int | None, players: int, lang: str) -> str:
    """The default name of ``seat`` for a viewer in ``viewer`` (None: a spectator)."""
    zh = lang.startswith("zh")
    if players != 4:
        return f"{seat + 1} 号位" if zh else f"Seat {seat + 1}"
    names = BY_SCREEN["zh" if zh else "en"]["watching" if viewer is None else "seated"]
    return names[(seat - (viewer or 0)) % players]


def seat_names(chosen: Sequence[str], viewer: int | None, lang: str) -> list[str]:
    """Every seat's name for this viewer: the chosen name, else the default by screen position."""
    return [name or seat_name(i, viewer, len(chosen), lang) for i, name in enumerate(chosen)]
