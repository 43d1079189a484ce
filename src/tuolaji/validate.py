"""Checks for everything that enters the server from outside: texts and JSON documents.

Every text a client can send (a player's name, a reconnect token, a rules name or description,
a message id) is checked here before it reaches a room or the database: it must be encodable
as UTF-8 (a lone UTF-16 surrogate such as ``"\\udfff"`` is valid JSON but cannot be saved or
sent), short enough, and free of control characters. JSON is decoded with a nesting limit, so
a deeply nested document is refused with a clear error instead of a RecursionError.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from typing import Any

MAX_JSON_DEPTH = 32  # every document the table accepts is at most ~6 levels deep
# Characters that rewrite how the text around them is shown (bidirectional overrides) are
# refused with the control characters: a name must not reorder the table's other texts.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


class TextError(ValueError):
    """A text from outside that the server refuses; the message says which rule it breaks."""


class JSONInputError(ValueError):
    """A JSON document from outside that cannot be read: ``code`` is ``bad_json`` or ``too_deep``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def text_problem(value: str, *, max_len: int, multiline: bool = False, controls: bool = False) -> str | None:
    """Why ``value`` may not be stored or shown (None: it may). ``controls``: control characters
    are let through (the caller cleans them, as chat does)."""
    if len(value) > max_len:
        return f"at most {max_len} characters"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "valid Unicode text (it holds a lone surrogate)"
    if controls:
        return None
    for ch in value:
        if ch in _BIDI_CONTROLS:
            return "plain text without direction-override characters"
        if unicodedata.category(ch) == "Cc" and not (multiline and ch in "\n\t"):
            return "plain text without control characters"
    return None


def check_text(value: Any, *, field: str, max_len: int, multiline: bool = False) -> str:
    """``value`` if it is an acceptable text, else :class:`TextError` naming ``field``."""
    if not isinstance(value, str):
        raise TextError(f"{field!r} must be a text")
    problem = text_problem(value, max_len=max_len, multiline=multiline)
    if problem is not None:
        raise TextError(f"{field!r} must be {problem}")
    return value


def unencodable_path(obj: Any, path: str = "$", *, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """The path of the first text (key or value) in ``obj`` that cannot be encoded as UTF-8."""
    stack: list[tuple[Any, str, int]] = [(obj, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > max_depth:
            return where
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return where
        elif isinstance(item, dict):
            for k, v in item.items():
                if isinstance(k, str):
                    try:
                        k.encode("utf-8")
                    except UnicodeEncodeError:
                        return f"{where} (a key)"
                stack.append((v, f"{where}.{k}", depth + 1))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(item))
    return None


def depth(obj: Any) -> int:
    """Nesting depth of a decoded JSON value (a scalar is 0), without recursion: the depth of its
    deepest value, the value itself at depth 0."""
    if not isinstance(obj, (dict, list)):
        return 0
    d = 0
    level = [obj]  # the containers at depth d
    while True:
        below: list[Any] = []
        children = False
        for item in level:
            values = item.values() if isinstance(item, dict) else item
            if values:
                children = True
                below.extend(v for v in values if isinstance(v, (dict, list)))
        if not children:
            return d
        d += 1
        if not below:
            return d
        level = below


_decoder = json.JSONDecoder()
_decode = _decoder.decode  # what json.loads calls for text without a BOM, minus its argument checks
_scan: Callable[[str, int], tuple[Any, int]] = _decoder.scan_once  # type: ignore[attr-defined]  # what decode calls after leading whitespace
_NOTHING = object()


def loads(raw: str | bytes | bytearray, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Decode JSON from outside: :class:`JSONInputError` for bad UTF-8, bad JSON or deep nesting."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError("bad_json", f"not UTF-8 text (byte {exc.start})") from None
    data = _NOTHING
    if type(raw) is str:
        try:  # a document that starts at the first character and ends at the last, or before JSON whitespace
            data, end = _scan(raw, 0)
            if end != len(raw) and raw[end:].strip(" \t\n\r"):
                data = _NOTHING
        except Exception:  # the path below words it
            data = _NOTHING
    try:
        # json.loads words a BOM (and anything not text) itself
        if data is _NOTHING:
            data = _decode(raw) if type(raw) is str and not raw.startswith("\ufeff") else json.loads(raw)
    except json.JSONDecodeError as exc:
        raise JSONInputError("bad_json", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise JSONInputError("too_deep", f"nested more than {max_depth} levels deep") from None
    # Each level of nesting opens with a bracket, so text with few brackets needs no walk.
    if isinstance(data, (dict, list)) and raw.count("[") + raw.count("{") > max_depth and depth(data) > max_depth:
        raise JSONInputError("too_deep", f"nested more than {max_depth} levels deep")
    return data


def safe_dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` whose result can always be written as UTF-8: a lone surrogate anywhere is
    written as its ``\\uXXXX`` escape instead of making the write fail."""
    text = json.dumps(obj, ensure_ascii=False, **kwargs)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj, ensure_ascii=True, **kwargs)
    return text
