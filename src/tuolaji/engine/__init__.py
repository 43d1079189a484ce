"""Round and match state machines, actions, events, legal actions and per-seat views."""

from .actions import Action, Bury, Deal, Declare, Pass, Play, action_from_dict, action_to_dict
from .legal import count_legal_plays, is_legal, lead_combos, legal_actions, legal_plays
from .match import Match, MatchEnded, RoundStarted
from .round import Phase, Round, Trick
from .view import events_for, match_view, round_view

__all__ = [
    "Action",
    "Bury",
    "Deal",
    "Declare",
    "Pass",
    "Play",
    "action_from_dict",
    "action_to_dict",
    "count_legal_plays",
    "is_legal",
    "legal_actions",
    "legal_plays",
    "lead_combos",
    "Match",
    "MatchEnded",
    "RoundStarted",
    "Phase",
    "Round",
    "Trick",
    "events_for",
    "match_view",
    "round_view",
]
