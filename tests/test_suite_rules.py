"""Rules the test suite keeps so that it passes in any order and on a loaded machine."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _calls(path: Path, module: str, name: str) -> list[int]:
    """Lines of ``path`` that call ``module.name(...)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == module
    ]


def test_coroutines_are_run_by_aio_run_async_not_asyncio_run() -> None:
    """Once a process has run a browser test, Playwright's event loop stays marked as running in
    its main thread and asyncio.run refuses to start there: a test calling it directly fails
    whenever a worker happens to run a browser test first (``-n 2 --dist loadfile`` showed it)."""
    found = [
        f"{path.relative_to(TESTS)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "aio.py"
        for line in _calls(path, "asyncio", "run")
    ]
    assert found == [], f"use aio.run_async: {found}"
