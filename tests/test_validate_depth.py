"""The JSON depth limit measures nesting exactly, with or without the bracket-count shortcut."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tuolaji.validate import JSONInputError, depth, loads

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet="[]{}ab", max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet="[{x", max_size=2), inner, max_size=3),
    max_leaves=30,
)


def _depth(value: Any) -> int:
    """The definition: a value sits at depth 0, what it holds one deeper."""
    children = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
    return max((1 + _depth(v) for v in children), default=0)


@given(json_values)
def test_depth_is_the_deepest_value(value: Any) -> None:
    assert depth(value) == _depth(value)


@given(json_values, st.integers(0, 6))
def test_loads_refuses_exactly_what_is_nested_too_deep(value: Any, limit: int) -> None:
    text = json.dumps(value)
    if _depth(value) > limit:
        with pytest.raises(JSONInputError, match="nested more than"):
            loads(text, max_depth=limit)
    else:
        assert loads(text, max_depth=limit) == value
