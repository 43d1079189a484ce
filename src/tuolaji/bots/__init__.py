"""Computer players."""

from .base import Bot
from .driver import Table
from .random_bot import RandomBot

__all__ = ["Bot", "Table", "RandomBot"]
