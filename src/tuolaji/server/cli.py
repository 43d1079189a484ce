"""``tuolaji`` / ``tuolaji play``: start the table on this computer and open the browser.
``tuolaji serve --host 0.0.0.0 --port N``: serve the same on the local network."""

from __future__ import annotations

import argparse
import contextlib
import logging
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path

DEFAULT_PORT = 8321


class PortTaken(OSError):
    """The port is in use by another program (not merely waiting out TIME_WAIT after a restart)."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) with address reuse, so that an immediate restart keeps the
    port its browser tabs and their stored seat tokens know, even while the last run's connections
    wait out TIME_WAIT. A port another program listens on still refuses: :class:`PortTaken`."""
    bind_host = "" if host in ("0.0.0.0", "") else host
    family = socket.AF_INET6 if ":" in bind_host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bind_host, port))
    except OSError as exc:
        sock.close()
        raise PortTaken(exc.errno, f"port {port} on {host or '0.0.0.0'} is in use: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def _listen_somewhere(host: str, preferred: int) -> socket.socket:
    """The preferred port, else the next few (a stable address keeps bookmarks), else any free one."""
    for port in [*range(preferred, preferred + 10), 0]:
        with contextlib.suppress(PortTaken):
            return listen(host, port)
    raise PortTaken(0, "no free port")


def _running_table(port: int) -> bool:
    """Is a tuolaji table already answering on this computer's ``port``?"""
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=0.5) as resp:
            return "version" in json.loads(resp.read().decode())
    except (OSError, ValueError):
        return False


def parser(command: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=f"tuolaji {command}",
        description=(
            "Play Tractor in the browser against the computer (and friends on the network)."
            if command == "play"
            else "Serve the Tractor table on the local network."
        ),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1" if command == "play" else "0.0.0.0",
        help="address to listen on (serve: 0.0.0.0 = every network; play: this computer only)",
    )
    p.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"port (default {DEFAULT_PORT}, or the next free one when another program holds it;"
        " a port given here is kept or the command stops)",
    )
    p.add_argument(
        "--db", type=Path, default=None, help="SQLite file for saved games (default: ~/.local/share/tuolaji/games.sqlite3)"
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    p.add_argument("--allow-seed", action="store_true", help="let new games choose their deal seed (tests, benchmarks)")
    p.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the server's limits, e.g. --limit connections_per_address=200 "
        "(every name and default: docs/table.md, Limits)",
    )
    return p


def main(argv: list[str] | None = None, *, command: str = "play") -> int:
    args = parser(command).parse_args(argv if argv is not None else sys.argv[1:])
    try:
        import uvicorn

        from .app import create_app, lan_addresses
        from .local import is_loopback
    except ImportError as exc:  # pragma: no cover - the server extra is missing
        print(f"tuolaji {command}: the table needs the server extra: pip install 'tuolaji[server]' ({exc})", file=sys.stderr)
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    port = args.port if args.port is not None else DEFAULT_PORT
    if command == "play" and _running_table(port):  # one table per computer: a second server would share the file
        url = f"http://127.0.0.1:{port}/play"
        print(f"tuolaji: the table is already running at http://127.0.0.1:{port}/", flush=True)
        if not args.no_browser:
            webbrowser.open(url)
        return 0
    from .limits import parse_limits, uvicorn_options
    from .store import StoreError

    try:
        limits = parse_limits(args.limit)
    except ValueError as exc:
        print(f"tuolaji {command}: {exc}", file=sys.stderr)
        return 2
    try:  # the database first: a damaged file, or another server on it, stops before the port is taken
        app = create_app(args.db, allow_seed=args.allow_seed, mode=command, listen_host=args.host, limits=limits)
    except StoreError as exc:
        print(f"tuolaji {command}: {exc}", file=sys.stderr)
        return 2
    try:
        sock = listen(args.host, port) if args.port is not None else _listen_somewhere(args.host, port)
    except PortTaken as exc:
        app.state.tables.store.close()  # frees the database for the next try
        print(
            f"tuolaji {command}: {exc.strerror}. Another program holds it: stop that program, or choose"
            f" another port with --port.",
            file=sys.stderr,
            flush=True,
        )
        return 1
    port = int(sock.getsockname()[1])
    if port != DEFAULT_PORT and args.port is None:
        print(f"tuolaji: port {DEFAULT_PORT} is taken by another program; using {port}", flush=True)
    local = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '') else args.host}:{port}/"
    print(f"tuolaji: the table is at {local}", flush=True)
    if args.host in ("0.0.0.0", ""):
        for ip in lan_addresses():
            print(f"         on the local network: http://{ip}:{port}/", flush=True)
    elif is_loopback(args.host):
        print("         this computer only; to play with friends on the network, run: tuolaji serve", flush=True)
    print("         press Ctrl+C to stop (games are saved as they go)", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=port,
        log_level=args.log_level,
        access_log=False,
        **uvicorn_options(app.state.limits, app.state.addresses),
    )
    server = uvicorn.Server(config)
    if command == "play" and not args.no_browser:

        def _open() -> None:
            for _ in range(100):
                if server.started:
                    break
                time.sleep(0.05)
            with contextlib.suppress(Exception):
                webbrowser.open(local + "play")  # your unfinished game, or a new one against the computer

        threading.Thread(target=_open, daemon=True).start()
    server.run(sockets=[sock])
    return 0


if __name__ == "__main__":  # pragma: no cover
    _cmd = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in ("play", "serve") else "play"
    raise SystemExit(main(sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == _cmd else sys.argv[1:], command=_cmd))
