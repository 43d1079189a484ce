"""Regenerate the golden playthrough: ``python tests/golden/regenerate.py``.

Plays the seeded match of tests/playthrough.py (random players through the checked engine) and
writes its full record, one deal and one event per line, to tests/golden/match_seed157.json.
Regenerate only when a rule or the record format changes on purpose, and review the diff: the
golden test replays the stored actions and compares every event the engine derives.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SEED = 157  # a short match: 14 rounds
GOLDEN = HERE / f"match_seed{SEED}.json"


def write_record(record: dict[str, Any], path: Path) -> None:
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    for key in ("format", "version", "rules", "seed"):
        lines.append(f"  {one(key)}: {one(record[key])},")
    for key in ("deals", "events"):
        items = record[key]
        lines.append(f"  {one(key)}: [")
        lines.extend(f"    {one(item)}{',' if i < len(items) - 1 else ''}" for i, item in enumerate(items))
        lines.append("  ]," if key == "deals" else "  ]")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    sys.path.insert(0, str(HERE.parent))
    from playthrough import play_match
    from tuolaji.record import to_record

    match = play_match(SEED)
    write_record(to_record(match), GOLDEN)
    print(f"wrote {GOLDEN} ({len(match.rounds)} rounds, {len(match.events)} events, winner team {match.winner})")


if __name__ == "__main__":
    main()
