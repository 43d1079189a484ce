"""A table server in its own process, for the tests that stop, kill or restart one: start it on a
free port, wait until it answers, stop it as a service manager (or Ctrl+C) does."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

Proc = subprocess.Popen[bytes]


# Ports below the kernel's ephemeral range (32768 and up on Linux) are never handed to a
# connection or a ``bind(0)``, so a port chosen here stays free until the server binds it, and
# again while it restarts; each pytest-xdist worker draws from its own block.
_PORTS = iter(range(20000 + 500 * int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0), 32768))


def free_port() -> int:
    """A port on 127.0.0.1 that nothing holds now and no other test of this run will choose."""
    for port in _PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # held by something outside the tests
            return port
    raise RuntimeError("no free port below the ephemeral range")


def tuolaji(*args: str, log: Path) -> Proc:
    """``python -m tuolaji.cli ARGS --no-browser``, its output appended to ``log`` (a pipe nobody
    reads would stop the server once full)."""
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "tuolaji.cli", *args, "--no-browser"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )


def serve(db: Path, port: int, *extra: str) -> Proc:
    """``tuolaji serve`` on ``port``, answering (or an AssertionError with what it said)."""
    log = db.with_suffix(".log")
    proc = tuolaji("serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), *extra, log=log)
    wait_up(proc, f"http://127.0.0.1:{port}", log)
    return proc


def wait_up(proc: Proc, url: str, log: Path, timeout: float = 60) -> None:
    """Until ``url`` answers ``/api/info`` (a loaded machine starts a server slowly)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/info", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            break
    stop(proc)
    raise AssertionError(f"the server did not start: {log.read_text(errors='replace')[-2000:]}")


def stop(proc: Proc, sig: signal.Signals = signal.SIGTERM) -> None:
    """Stop the server with ``sig`` (SIGINT: Ctrl+C), killing it after 20 s."""
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
