"""The bot interface: a bot decides from an :class:`Observation` of its own seat only."""

from __future__ import annotations

from ..engine.observation import Observation


class Bot:
    """Override the decisions you care about; the defaults never declare."""

    name = "bot"

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        """Called after each card dealt to this seat and at the last call: cards to show, or None."""
        return None

    def bury(self, obs: Observation) -> tuple[int, ...]:
        raise NotImplementedError

    def play(self, obs: Observation) -> tuple[int, ...]:
        raise NotImplementedError
