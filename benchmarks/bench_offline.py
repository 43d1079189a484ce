"""The offline build in this machine's Chromium: start times and the computer players' latency.

    python benchmarks/bench_offline.py [--build build/web] [--starts 3] [--rounds 2] [--difficulty expert]

Serves the build with a plain static server (every other host unreachable) and measures:

- **cold start**: a fresh browser profile's first visit, from navigation until the worker has
  started Python and tuolaji (``window.tuolajiBoot``: download, Python up, ready);
- **warm start**: a reload once the service worker holds the build (what every later visit,
  and a visit with the network cut, costs);
- **decision latency in a Web Worker**: four computer players of ``--difficulty`` play whole
  rounds in a worker running the build's Pyodide and tuolaji.zip; every play and bury decision
  is timed inside the worker (the room's bots decide exactly so, in the game's worker);
- **the page's responsiveness** meanwhile: the largest delay of a 50 ms timer on the page's
  thread while the worker thinks (a blocked UI thread would show here).

Build first: ``./scripts/build-web build/web``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web_offline"))

from offline_util import StaticServer, booted  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

# Runs inside the worker, on Pyodide: whole rounds with the bots the table would make.
BOT_ROUNDS = r"""
import json, random, time
from tuolaji.bots.driver import Table
from tuolaji.bots.registry import make_bot
from tuolaji.engine.match import Match

def timed(bot, out):
    for name in ("play", "bury"):
        fn = getattr(bot, name)
        def wrap(obs, _fn=fn):
            t0 = time.perf_counter()
            try:
                return _fn(obs)
            finally:
                out.append(time.perf_counter() - t0)
        setattr(bot, name, wrap)
    return bot

def run(difficulty, rounds, seed):
    out = []
    match = Match(seed=seed)
    table = Table(match, [timed(make_bot(difficulty, seed=seed * 4 + s), out) for s in range(4)])
    while len(match.rounds) < rounds and not match.over:
        table.step()
    return json.dumps(out)
"""

WORKER_JS = """
import { loadPyodide } from "%(root)s/pyodide/pyodide.mjs";
onmessage = async (ev) => {
  const py = await loadPyodide({ indexURL: "%(root)s/pyodide/" });
  const zip = await (await fetch("%(root)s/py/tuolaji.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/tuolaji-lib" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/tuolaji-lib')");
  py.runPython(ev.data.source);
  const run = py.globals.get("run");
  postMessage(JSON.parse(run(ev.data.difficulty, ev.data.rounds, ev.data.seed)));
};
"""


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build/web")
    ap.add_argument("--starts", type=int, default=3, help="cold and warm starts to time (medians are reported)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of four computer players in the worker")
    ap.add_argument("--difficulty", default="expert")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--p95", type=float, default=1.5, help="seconds: the target p95")
    ap.add_argument("--max", type=float, default=3.0, help="seconds: the target maximum")
    args = ap.parse_args(argv)
    root = Path(args.build)
    if not (root / "build.json").is_file():
        print(f"no build in {root}: run ./scripts/build-web {root}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server = StaticServer(root)
    result: dict[str, object] = {"build": json.loads((root / "build.json").read_text())}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            cold, warm = [], []
            for _ in range(args.starts):
                ctx = browser.new_context()
                page = ctx.new_page()
                t0 = time.perf_counter()
                page.goto(server.url + "/")
                b = booted(page)
                cold.append((time.perf_counter() - t0, b["timings"]))
                page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active", timeout=60_000)
                page.wait_for_timeout(500)
                t0 = time.perf_counter()
                page.reload()
                b = booted(page)
                warm.append((time.perf_counter() - t0, b["timings"]))
                ctx.close()
            result["cold_start_s"] = round(statistics.median(c[0] for c in cold), 2)
            result["warm_start_s"] = round(statistics.median(w[0] for w in warm), 2)
            result["cold_timings_ms"] = [c[1] for c in cold]
            result["warm_timings_ms"] = [w[1] for w in warm]
            print(
                f"cold start {result['cold_start_s']} s, warm start {result['warm_start_s']} s (medians of {args.starts})",
                flush=True,
            )

            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(server.url + "/build.json")
            t0 = time.perf_counter()
            out = page.evaluate(
                """async ({ js, source, difficulty, rounds, seed }) => {
              const url = URL.createObjectURL(new Blob([js], { type: "text/javascript" }));
              const w = new Worker(url, { type: "module" });
              let worst = 0, last = performance.now();
              const tick = setInterval(() => {
                const now = performance.now(); worst = Math.max(worst, now - last - 50); last = now;
              }, 50);
              const times = await new Promise((ok, no) => { w.onmessage = (e) => ok(e.data); w.onerror = (e) => no(e.message);
                w.postMessage({ source, difficulty, rounds, seed }); });
              clearInterval(tick);
              return { times, worst };
            }""",
                {
                    "js": WORKER_JS % {"root": server.url},
                    "source": BOT_ROUNDS,
                    "difficulty": args.difficulty,
                    "rounds": args.rounds,
                    "seed": args.seed,
                },
            )
            wall = time.perf_counter() - t0
            times = out["times"]
            lat = {
                "decisions": len(times),
                "p50_s": round(quantile(times, 0.5), 3),
                "p95_s": round(quantile(times, 0.95), 3),
                "max_s": round(max(times), 3),
                "wall_s": round(wall, 1),
            }
            result["latency"] = lat
            result["page_timer_worst_delay_ms"] = round(out["worst"], 1)
            browser.close()
    finally:
        server.stop()
    ok = lat["p95_s"] <= args.p95 and lat["max_s"] <= args.max
    print(json.dumps(result, indent=1))
    print(
        f"{args.difficulty} in the worker: p95 {lat['p95_s']} s, max {lat['max_s']} s over {lat['decisions']} decisions "
        f"({'PASS' if ok else 'FAIL'}: <= {args.p95} / {args.max} s); the page's timer was at most "
        f"{result['page_timer_worst_delay_ms']} ms late"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
