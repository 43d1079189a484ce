"""Run the table server in a background thread (tests, benchmarks, embedding)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .app import Tables, create_app

T = TypeVar("T")


class LiveServer:
    """``with LiveServer(db) as srv: srv.url`` — uvicorn on a free port, stopped on exit."""

    def __init__(self, db_path: str | Path = ":memory:", *, host: str = "127.0.0.1", port: int = 0, **app_options: Any) -> None:
        import uvicorn

        from .limits import LOOPBACK_CROWD, Limits

        # every test client comes from 127.0.0.1: one address, many players (tests of the
        # limits themselves pass their own)
        app_options.setdefault("limits", Limits(**LOOPBACK_CROWD))
        self.app = create_app(db_path, listen_host=host, **app_options)
        self.host = host
        from .limits import uvicorn_options

        config = uvicorn.Config(
            self.app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            lifespan="on",
            **uvicorn_options(self.app.state.limits, self.app.state.addresses),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="tuolaji-live-server", daemon=True)
        self.port = port

    @property
    def tables(self) -> Tables:
        tables: Tables = self.app.state.tables
        return tables

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 60  # a loaded machine starts a server slowly
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the table server did not start")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    def call(self, fn: Callable[[], T], timeout: float = 30.0) -> T:
        """Run ``fn`` on the server's event loop (the only safe place to touch rooms) and return its result."""
        loop = self.tables.loop
        assert loop is not None

        async def run() -> T:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), loop).result(timeout)

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def legal_from_view(view: dict[str, Any], rng: Any) -> list[str]:
    """A random legal play from what a seat is shown (its hand and the trick), nothing else: how
    test and benchmark clients play without looking inside the server."""
    from types import SimpleNamespace

    from ..bots.random_bot import random_legal
    from ..cards import cards_str, parse_cards
    from ..trump import TrumpContext

    trump = None if view["trump"] is None else "SHCD".index(view["trump"])
    ctx = TrumpContext(view["level"], trump, 2, True)
    trick = view["trick"]
    plays = tuple(tuple(parse_cards(p["cards"])) for p in trick["plays"]) if trick else ()
    obs = SimpleNamespace(hand=tuple(parse_cards(view["hand"])), ctx=ctx, trick=SimpleNamespace(plays=plays))
    return cards_str(random_legal(obs, rng))  # type: ignore[arg-type]
