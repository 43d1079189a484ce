"""The server's JSON text (server/jsontext.py: orjson where installed) is the standard library's
compact text, character for character, for every message of a played round and for what
orjson itself refuses."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from aio import run_async

pytest.importorskip("starlette")

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_server_cpu  # noqa: E402

from tuolaji.server import jsontext  # noqa: E402


def test_the_wire_text_is_the_standard_librarys(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []

    def both(msg: object) -> str:
        text = jsontext.dumps(msg)
        seen.append((text, jsontext.std_dumps(msg)))
        return text

    monkeypatch.setattr(bench_server_cpu, "dumps", both)
    run_async(bench_server_cpu.run(2, 400))  # two rooms of four players: deals, bids, plays, round ends
    assert len(seen) > 1000
    assert all(fast == std for fast, std in seen)
    assert any("summary" in json.loads(t) for t, _ in seen)


@pytest.mark.parametrize("value", [{"seed": 2**70}, {1: "a"}, {"name": "红桃 ♥ \u2028"}, [1.5, -0.0, 1e300]])
def test_what_orjson_refuses_or_spells_its_own_way_comes_out_the_same(value: object) -> None:
    assert jsontext.dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
