"""How often the dealer's side keeps the deal when heuristic players play a rule set.

Rounds are played within matches (the first round of each match decides the dealer by
declaration), so levels, dealers and declarations vary as they do at a table. A round that is
dealt again (nobody declared, or a redeal request) does not count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..bots.driver import Table
from ..bots.registry import make_bot
from ..engine.events import RoundEnded
from ..engine.match import Match
from ..ruleset import RuleSet


@dataclass
class Balance:
    rounds: int = 0
    dealer_keeps: int = 0
    outcomes: Counter[tuple[str, int]] = field(default_factory=Counter)  # (team, levels) -> rounds

    @property
    def keep_share(self) -> float:
        return self.dealer_keeps / self.rounds if self.rounds else 0.0

    def big_swings(self) -> int:
        """Rounds in which the attackers took over and went up 3 levels or more."""
        return sum(n for (team, levels), n in self.outcomes.items() if team == "attackers" and levels >= 3)


def measure(rules: RuleSet, *, rounds: int, seed: int = 0, bot: str = "heuristic", match_rounds: int = 8) -> Balance:
    """Play ``rounds`` scored rounds of ``rules``, ``match_rounds`` per match from ``seed`` on."""
    out = Balance()
    game = 0
    while out.rounds < rounds:
        match = Match(rules=rules, seed=seed * 100_003 + game)
        bots = [make_bot(bot, seed=(seed * 100_003 + game) * 8 + s) for s in range(rules.players)]
        Table(match, bots).play_match(max_rounds=min(match_rounds, rounds - out.rounds + 2))
        game += 1
        for rnd in match.rounds:
            result = rnd.result
            if not isinstance(result, RoundEnded) or out.rounds >= rounds:
                continue
            out.rounds += 1
            out.dealer_keeps += result.team == "dealer"
            out.outcomes[(result.team, result.levels)] += 1
    return out
