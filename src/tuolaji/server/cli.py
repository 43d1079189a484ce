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


def _free_port(host: str, preferred: int) -> int:
    for port in (preferred, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host if host != "0.0.0.0" else "", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise OSError("no free port")


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
        description=("Play Tractor in the browser against the computer (and friends on the network)."
                     if command == "play" else "Serve the Tractor table on the local network."),
    )
    p.add_argument("--host", default="127.0.0.1" if command == "play" else "0.0.0.0",
                   help="address to listen on (serve: 0.0.0.0 = every network; play: this computer only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; play picks a free one when it is taken)")
    p.add_argument("--db", type=Path, default=None,
                   help="SQLite file for saved games (default: ~/.local/share/tuolaji/games.sqlite3)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    p.add_argument("--allow-seed", action="store_true", help="let new games choose their deal seed (tests, benchmarks)")
    p.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    return p


def main(argv: list[str] | None = None, *, command: str = "play") -> int:
    args = parser(command).parse_args(argv if argv is not None else sys.argv[1:])
    try:
        import uvicorn

        from .app import create_app, lan_addresses
    except ImportError as exc:  # pragma: no cover - the server extra is missing
        print(f"tuolaji {command}: the table needs the server extra: pip install 'tuolaji[server]' ({exc})",
              file=sys.stderr)
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    port = args.port
    if command == "play":
        if _running_table(port):  # one table per computer: a second server would share the same file
            url = f"http://127.0.0.1:{port}/play"
            print(f"tuolaji: the table is already running at http://127.0.0.1:{port}/", flush=True)
            if not args.no_browser:
                webbrowser.open(url)
            return 0
        port = _free_port(args.host, port)
    app = create_app(args.db, allow_seed=args.allow_seed, mode=command)
    local = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '') else args.host}:{port}/"
    print(f"tuolaji: the table is at {local}", flush=True)
    if args.host in ("0.0.0.0", ""):
        for ip in lan_addresses():
            print(f"         on the local network: http://{ip}:{port}/", flush=True)
    print("         press Ctrl+C to stop (games are saved as they go)", flush=True)
    config = uvicorn.Config(app, host=args.host, port=port, log_level=args.log_level, access_log=False,
                            ws_max_size=65536,
                            ws_per_message_deflate=False)
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
    server.run()
    return 0


if __name__ == "__main__":  # pragma: no cover
    _cmd = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in ("play", "serve") else "play"
    raise SystemExit(main(sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == _cmd else sys.argv[1:], command=_cmd))
