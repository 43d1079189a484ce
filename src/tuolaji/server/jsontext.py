"""JSON text for the wire and the store, made by orjson when it is installed (the server extra
installs it; a few times faster than the standard library, which serializing every state for
every connection makes count), the same text as ``json.dumps(ensure_ascii=False, compact)``.

Anything orjson refuses (an integer past 64 bits, a key that is not a string) goes to the
standard library, so the text never depends on which one made it. The offline build (Pyodide)
does not use this module.
"""

from __future__ import annotations

import json
from typing import Any


def std_dumps(obj: Any) -> str:
    """The reference form: compact, UTF-8 text as it is (no \\u escapes)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


try:
    import orjson
except ImportError:  # pragma: no cover - the server extra installs it
    dumps = std_dumps
else:
    _orjson_dumps = orjson.dumps

    def dumps(obj: Any) -> str:
        try:
            return _orjson_dumps(obj).decode()
        except TypeError:  # (orjson.JSONEncodeError is one)
            return std_dumps(obj)


__all__ = ["dumps", "std_dumps"]
