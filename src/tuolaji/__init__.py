"""tuolaji: Tractor (拖拉机 / 升级 / 80分), the two-deck trick-taking game, in Python."""

from .cards import BJ, LJ, card_str, cards_str, parse_card, parse_cards
from .errors import IllegalAction, RuleError
from .ruleset import PRESETS, RuleSet, RuleSetError, load_rules, preset
from .trump import TrumpContext

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)

__all__ = [
    "BJ",
    "LJ",
    "card_str",
    "cards_str",
    "parse_card",
    "parse_cards",
    "IllegalAction",
    "RuleError",
    "PRESETS",
    "RuleSet",
    "RuleSetError",
    "load_rules",
    "preset",
    "TrumpContext",
    "__version__",
]
