"""``tuolaji judge``: the judge protocol on stdin/stdout (see docs/judge.md)."""

from __future__ import annotations

import argparse
import sys

from .judge import serve


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(
        prog="tuolaji judge",
        description="Read one JSON request per line on stdin, write one JSON response per line.",
    ).parse_args(argv)
    # bytes that are not UTF-8 reach the judge as surrogate escapes and get an error answer;
    # they must not end the judge's input loop
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="surrogateescape")
    serve(sys.stdin, sys.stdout)
    return 0
