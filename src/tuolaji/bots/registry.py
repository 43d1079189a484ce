"""Bots by name, and difficulty names players pick from."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .random_bot import RandomBot

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": lambda seed: RandomBot(seed),
}
DIFFICULTIES: dict[str, str] = {"easy": "random"}


def register(name: str, factory: Callable[[int | None], Bot]) -> None:
    BOTS[name] = factory


def make_bot(name: str, *, seed: int | None = None) -> Bot:
    name = DIFFICULTIES.get(name, name)
    if name not in BOTS:
        _load_builtin()
    name = DIFFICULTIES.get(name, name)
    if name not in BOTS:
        # fall back to the strongest bot available while the others are being written
        if name == "heuristic":
            return RandomBot(seed)
        raise ValueError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS) + sorted(DIFFICULTIES))}")
    return BOTS[name](seed)


def _load_builtin() -> None:
    """Import optional bot modules, which register themselves."""
    import importlib

    for mod in ("heuristic", "search", "oracle"):
        try:
            importlib.import_module(f"{__package__}.{mod}")
        except ImportError:
            pass
