"""Browser tests of the offline build: the folder ``tuolaji build-web`` writes, served by a plain
static file server, in Debian's Chromium with every host but the test server unreachable.

The build comes from ``$TUOLAJI_WEB_BUILD`` when that names a finished build (``.ci/run`` builds
it first), else it is built here into a temporary folder (needs ``npm ci`` and fonts-noto-cjk).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))  # table_page: driving the table

from offline_util import StaticServer  # noqa: E402

from chromium import launch_chromium  # noqa: E402
from tuolaji.offline.build import BuildError, build, find_pyodide  # noqa: E402

# every host name but the test server's resolves to nothing: the page cannot reach a CDN
NO_OTHER_HOSTS = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def _required() -> bool:
    return bool(os.environ.get("TUOLAJI_REQUIRE_BROWSER"))


@pytest.fixture(scope="session")
def web_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("TUOLAJI_WEB_BUILD")
    if given and (Path(given) / "build.json").is_file():
        return Path(given)
    out = tmp_path_factory.mktemp("web") / "build"
    try:
        build(out, pyodide_dir=find_pyodide(None))
    except BuildError as exc:
        if _required():
            pytest.fail(f"cannot build the offline folder: {exc}")
        pytest.skip(f"cannot build the offline folder: {exc}")
    return out


@pytest.fixture()
def static_server(web_build: Path) -> Iterator[StaticServer]:
    s = StaticServer(web_build)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser(playwright_api: Any) -> Iterator[Any]:
    b = launch_chromium(playwright_api, NO_OTHER_HOSTS)
    yield b
    b.close()


@pytest.fixture()
def context(browser: Any, static_server: StaticServer) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    outside: list[str] = []
    origin = static_server.url

    def watch(req: Any) -> None:
        if not req.url.startswith((origin + "/", "blob:", "data:")):
            outside.append(req.url)

    ctx.on("request", watch)
    ctx.outside_requests = outside  # type: ignore[attr-defined]
    yield ctx
    ctx.close()
    assert not outside, f"requests outside the build's origin: {outside}"
