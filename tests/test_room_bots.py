"""The room's computer players: searching difficulties decide off the event loop, and a bot that
fails (raises, or answers with an illegal action) is replaced by a legal fallback; the game goes on."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")

from server_util import Client, create_game, room_of, until  # noqa: E402
from tuolaji.bots.base import Bot  # noqa: E402
from tuolaji.engine.observation import Observation  # noqa: E402
from tuolaji.server.testing import LiveServer  # noqa: E402


class BrokenBot(Bot):
    """Declares when it can; raises when asked to play, buries the wrong number of cards; records the
    threads it ran on."""

    name = "broken"

    def __init__(self) -> None:
        self.threads: set[str] = set()  # where bury and play were decided
        self.asked = 0

    def _seen(self, decision: bool = True) -> None:
        self.asked += 1
        if decision:
            self.threads.add(threading.current_thread().name)

    def declare(self, obs: Observation) -> tuple[int, ...] | None:
        self._seen(decision=False)  # the deal asks for declarations card by card, on the loop
        options = obs.declaration_options()  # declares (the first round is dealt again until someone does)
        return options[0] if options else None

    def bury(self, obs: Observation) -> tuple[int, ...]:
        self._seen()
        return obs.hand[:1]  # the kitty holds 8: refused

    def play(self, obs: Observation) -> tuple[int, ...]:
        self._seen()
        raise RuntimeError("this bot is broken")


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("db") / "games.sqlite3", allow_seed=True) as s:
        yield s


def test_broken_searching_bots_are_replaced_by_legal_fallbacks_off_the_loop(srv: LiveServer) -> None:
    game = create_game(srv, seed=9, start=False, difficulty="hard")
    code = game["code"]
    bots = {s: BrokenBot() for s in (1, 2, 3)}
    loop_thread = srv.call(lambda: threading.current_thread().name)
    srv.call(lambda: room_of(srv, code).bots.update({s: ("hard", b) for s, b in bots.items()}))
    c = Client(srv, code, token=game["token"])
    try:
        c.send({"type": "start"})
        s = until(c, srv, lambda s: bool(s["between"]), rng=random.Random(2))
        assert s["summary"]["result"]["attacker_points"] >= 0, "the round was played to the end"
    finally:
        c.close()
    assert all(b.asked > 5 for b in bots.values()), [b.asked for b in bots.values()]
    threads = set().union(*(b.threads for b in bots.values()))
    assert loop_thread not in threads, "a searching difficulty decided on the event loop"
