"""Serving the offline build like any static host, and waiting for its runtime to start."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

BOOT_TIMEOUT = 120_000  # ms: a cold start compiles the runtime; a busy 2-core machine is slow


def booted(page: Any) -> dict[str, Any]:
    """Wait until the worker has started Python and tuolaji; returns the start timings."""
    page.wait_for_function("() => window.tuolajiBoot && window.tuolajiBoot.ms", timeout=BOOT_TIMEOUT)
    return dict(page.evaluate("window.tuolajiBoot"))


class StaticServer:
    """``python -m http.server``, in a thread, that can be switched off (the network is cut)."""

    def __init__(self, root: Path) -> None:
        handler = functools.partial(_Quiet, directory=str(root))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass
