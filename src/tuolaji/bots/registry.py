"""Bots by name, and the difficulty names players pick from.

A bot spec is a name with optional settings: ``search``, ``search:iterations=40,time=0.3``.
Difficulties are specs too: easy and normal = the human-like bot (the heuristic's judgement with
a person's slips, many or few), hard = search with a small budget, expert = search at its
default budget. The ``oracle`` bot is a tournament measuring
stick (it sees every hand) and is never offered as a difficulty.

The offline build runs the bots on Pyodide in the browser, measured 1.3-1.5x slower than CPython
on the same decisions (docs/bots.md), on whatever device the player has: there the expert keeps
the search budget measured for it (``BROWSER``), whatever the server's default becomes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from .base import Bot
from .random_bot import RandomBot

Factory = Callable[..., Bot]

BOTS: dict[str, Factory] = {
    "random": lambda seed, **kw: RandomBot(seed, **kw),
}
SERVER: dict[str, str] = {
    "easy": "human:level=easy",
    "normal": "human:level=normal",
    "hard": "search:steps=1000,setup_steps=2000,endgame_nodes=8000,time=0.3",
    "expert": "search",
}
# The browser's expert: p95 about 0.6 s per decision in Pyodide on this project's machine (1.5 s
# allowed), so a device up to about 2.5x slower still meets it; the cap (wall-clock seconds in
# Pyodide) ends the search earlier on slower ones.
BROWSER: dict[str, str] = {**SERVER, "expert": "search:steps=2000,setup_steps=8000,endgame_nodes=20000,time=1.0"}


def difficulty_specs(platform: str) -> dict[str, str]:
    """The difficulties' specs on ``platform`` (``sys.platform``; ``emscripten`` is Pyodide)."""
    return dict(BROWSER if platform == "emscripten" else SERVER)


DIFFICULTIES: dict[str, str] = difficulty_specs(sys.platform)
ORACLE_ONLY = frozenset({"oracle"})  # bots that see hidden cards: tournaments only


def register(name: str, factory: Factory) -> None:
    BOTS[name] = factory


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search:iterations=40,time=0.3"`` → ``("search", {"iterations": 40, "time": 0.3})``."""
    spec = DIFFICULTIES.get(spec, spec)
    name, _, rest = spec.partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"bad bot setting {item!r} in {spec!r}: write key=value")
        params[key.strip()] = _value(value.strip())
    return name, params


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def make_bot(name: str, *, seed: int | None = None) -> Bot:
    """A bot from a name, difficulty or spec (``heuristic``, ``hard``, ``search:iterations=40``)."""
    base, params = parse_spec(name)
    if base not in BOTS:
        _load_builtin()
    if base not in BOTS:
        options = ", ".join(sorted(BOTS) + sorted(DIFFICULTIES))
        raise ValueError(f"no bot named {base!r}; bots: {options}")
    try:
        return BOTS[base](seed, **params)
    except TypeError as exc:
        raise ValueError(f"bad settings for bot {base!r}: {exc}") from None


def _load_builtin() -> None:
    """Import the bot modules, which register themselves."""
    import importlib

    for mod in ("heuristic", "human", "search", "oracle"):
        importlib.import_module(f"{__package__}.{mod}")
