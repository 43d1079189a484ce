"""A short slice of the server fuzz harness (the full run: benchmarks/fuzz_server.py)."""

from __future__ import annotations

import gc
import warnings

import pytest

pytest.importorskip("starlette")

from tuolaji.server.fuzz import run  # noqa: E402


def test_a_fuzz_slice_finds_nothing() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", ResourceWarning)
        report = run(messages=1500, seed=11)
        gc.collect()  # what the harness left open is found now, not in whatever test runs next
    assert report.messages >= 1500
    assert report.refused > 500 and report.http_requests > 100  # it really fed the server bad input
    assert report.ok, report.line() + "\n" + "\n".join(report.problems)
    unclosed = [str(w.message) for w in seen if issubclass(w.category, ResourceWarning)]
    assert not unclosed, unclosed
