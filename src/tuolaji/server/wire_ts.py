"""Write ``wire.py``'s TypedDicts as TypeScript declarations for the web client.

``python -m tuolaji.server.wire_ts`` rewrites ``web/static/js/wire.d.ts``; ``--check`` exits 1
when the committed file differs from what this module would write (the test suite runs it).
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict

from . import wire

OUTPUT = Path(__file__).resolve().parent.parent / "web" / "static" / "js" / "wire.d.ts"
HEADER = (
    "// Generated from src/tuolaji/server/wire.py by `python -m tuolaji.server.wire_ts`. Do not edit.\n"
    "// The messages the server sends. JSDoc uses them as: /** @typedef {import('./wire').StateMsg} StateMsg */\n"
)


ALIASES = {"ServerMessage": wire.ServerMessage, "WireEvent": wire.WireEvent, "ReqId": wire.ReqId}


def _ts(tp: Any, used: list[type], *, alias: bool = True) -> str:
    if alias:
        for name, union in ALIASES.items():
            if tp == union:
                return name
    origin = get_origin(tp)
    if origin in (NotRequired, Required):
        return _ts(get_args(tp)[0], used)
    if tp is type(None) or tp is None:
        return "null"
    if tp is str:
        return "string"
    if tp in (int, float):
        return "number"
    if tp is bool:
        return "boolean"
    if tp is object or tp is Any:
        return "unknown"
    if is_typeddict(tp):
        if tp not in used:
            used.append(tp)
        return str(tp.__name__)
    if origin is Literal:
        return " | ".join(f'"{a}"' if isinstance(a, str) else str(a).lower() for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " | ".join(_ts(a, used) for a in get_args(tp))
    if origin is list:
        inner = _ts(get_args(tp)[0], used)
        return f"({inner})[]" if " " in inner else f"{inner}[]"
    if origin is dict:
        key, value = get_args(tp)
        return f"Record<{_ts(key, used)}, {_ts(value, used)}>"
    raise TypeError(f"no TypeScript spelling for {tp!r}")


def _interface(td: type, used: list[type]) -> str:
    hints = get_type_hints(td, include_extras=True)
    lines = []
    doc = (td.__doc__ or "").strip()
    if doc and not doc.startswith(f"{td.__name__}("):
        lines.append("/** " + " ".join(doc.split()) + " */")
    lines.append(f"export interface {td.__name__} {{")
    for name in hints:  # a subclass's fields include its bases' (written out: 3.11 keeps no base list)
        optional = name in td.__optional_keys__  # type: ignore[attr-defined]
        lines.append(f"  {name}{'?' if optional else ''}: {_ts(hints[name], used)};")
    lines.append("}")
    return "\n".join(lines)


def render() -> str:
    """The whole ``.d.ts`` text: every exported type and every type it uses, in first-use order."""
    used: list[type] = [t for t in wire.EXPORTS if isinstance(t, type)]
    out = [HEADER]
    i = 0
    while i < len(used):
        out.append(_interface(used[i], used))
        i += 1
    for name, union in ALIASES.items():
        out.append(f"export type {name} = {_ts(union, used, alias=False)};")
    while i < len(used):  # members only a union names
        out.append(_interface(used[i], used))
        i += 1
    return "\n\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if "--check" in args:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run python -m tuolaji.server.wire_ts", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
