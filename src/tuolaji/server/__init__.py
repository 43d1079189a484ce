"""The table: a Starlette ASGI app (HTTP + WebSockets) that serves the browser client, runs
rooms of humans and computer players, and keeps games in SQLite.

Layers: :mod:`.protocol` (message schemas, refusal texts), :mod:`.coach` (why / hint / review),
:mod:`.store` (SQLite), :mod:`.room` (one table: seats, driver loop, per-seat state),
:mod:`.app` (routes), :mod:`.cli` (``tuolaji`` / ``tuolaji serve``).
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
