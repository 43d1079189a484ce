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

With ``--compare`` it measures instead how much slower the build's Pyodide runs the search
than CPython here, on the same decisions: heuristic players deal and play ``--deals`` rounds, and
every ``--every``-th play is also decided (not played) by a fresh ``--bot`` (seeded by the
decision's number, ``time=30`` so that its step budget ends every search), once in a Web Worker
and once in this process. It reports each side's wall time per decision, this process's CPU
time, and the CPU time the browser's processes spent meanwhile (from ``/proc``), so the ratio
holds however busy the machine is.

Build first: ``./scripts/build-web build/web``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

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

# Runs in both places: the same positions (heuristic play), each decided by a fresh search bot.
SAME_DECISIONS = r"""
import json, random, time
from tuolaji.bots.driver import SoloRound, Table
from tuolaji.bots.heuristic import HeuristicBot
from tuolaji.bots.registry import make_bot
from tuolaji.cards import LevelRank, new_deck
from tuolaji.engine.observation import observe
from tuolaji.engine.round import Phase, Round
from tuolaji.ruleset import load_rules

def decisions(spec, rules_name, deals, every, seed):
    rules = load_rules(rules_name or None)
    out, n = [], 0
    for i in range(deals):
        rng = random.Random(seed * 1_000_003 + i)  # the tournament's duplicate deal i
        deck = new_deck(rules.decks)
        rng.shuffle(deck)
        level = LevelRank(rng.randrange(2, 15))
        rnd = Round(rules=rules, deck=deck, level=level, dealer=i % rules.players)
        table = Table(SoloRound(rnd), [HeuristicBot(s) for s in range(rules.players)])
        while rnd.phase != Phase.DONE:
            if rnd.phase == Phase.PLAY and rnd.turn is not None:
                n += 1
                if n % every == 0:
                    obs = observe(rnd, rnd.turn)
                    bot = make_bot(spec, seed=n)
                    t0 = time.perf_counter()
                    bot.play(obs)
                    out.append([n, time.perf_counter() - t0, bot.last_iterations])
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


COMPARE_JS = """
import { loadPyodide } from "%(root)s/pyodide/pyodide.mjs";
let py = null;
onmessage = async (ev) => {
  if (!py) {
    py = await loadPyodide({ indexURL: "%(root)s/pyodide/" });
    const zip = await (await fetch("%(root)s/py/tuolaji.zip")).arrayBuffer();
    py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/tuolaji-lib" });
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/tuolaji-lib')");
    py.runPython(ev.data.source);
    py.globals.get("decisions")(ev.data.spec, ev.data.rules, 1, 1000000, 0);  // imports and warms up, decides nothing
    postMessage("ready");
    return;
  }
  const d = ev.data;
  postMessage(JSON.parse(py.globals.get("decisions")(d.spec, d.rules, d.deals, d.every, d.seed)));
};
"""


def browser_cpu_s() -> float:
    """CPU seconds used so far by the Chromium processes this benchmark started (descendants of
    this process: other browsers on the machine are not counted), user + system."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, str, int]] = {}  # pid -> (parent, name, CPU ticks)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
        procs[int(pid)] = (int(rest[1]), name, int(rest[11]) + int(rest[12]))
    me = os.getpid()

    def mine(pid: int) -> bool:
        for _ in range(64):
            if pid == me:
                return True
            if pid not in procs or pid <= 1:
                return False
            pid = procs[pid][0]
        return False

    return sum(t for pid, (_, name, t) in procs.items() if "chrom" in name and mine(pid)) / tick


def compare(args: argparse.Namespace, browser: Any, server: Any) -> dict[str, Any]:
    """The same search decisions in a Web Worker (Pyodide) and in this process (CPython)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/build.json")
    page.evaluate(
        """async ({ js, source, spec, rules }) => {
          const w = new Worker(URL.createObjectURL(new Blob([js], { type: "text/javascript" })), { type: "module" });
          window.benchWorker = w;
          await new Promise((ok, no) => { w.onmessage = (e) => ok(e.data); w.onerror = (e) => no(e.message);
            w.postMessage({ source, spec, rules }); });
        }""",
        {"js": COMPARE_JS % {"root": server.url}, "source": SAME_DECISIONS, "spec": args.bot, "rules": args.rules},
    )
    job = {"spec": args.bot, "rules": args.rules, "deals": args.deals, "every": args.every, "seed": args.seed}
    cpu0, t0 = browser_cpu_s(), time.perf_counter()
    web = page.evaluate(
        """async (job) => await new Promise((ok, no) => { const w = window.benchWorker;
          w.onmessage = (e) => ok(e.data); w.onerror = (e) => no(e.message); w.postMessage(job); })""",
        job,
    )
    web_cpu, web_wall = browser_cpu_s() - cpu0, time.perf_counter() - t0
    ctx.close()
    scope: dict[str, Any] = {}
    exec(SAME_DECISIONS, scope)
    c0, t0 = time.process_time(), time.perf_counter()
    native = json.loads(scope["decisions"](args.bot, args.rules, args.deals, args.every, args.seed))
    cp_cpu, cp_wall = time.process_time() - c0, time.perf_counter() - t0
    web_s = [d[1] for d in web]
    cp_s = [d[1] for d in native]
    ratios = sorted(w / c for w, c in zip(web_s, cp_s, strict=True))
    cpu_ratio = web_cpu / cp_cpu
    return {
        "bot": args.bot,
        "rules": args.rules or "classic",
        "decisions": len(web_s),
        "same_iterations": sum(a[2] == b[2] for a, b in zip(web, native, strict=True)),
        "pyodide_wall_s": {
            "p50": round(quantile(web_s, 0.5), 3),
            "p95": round(quantile(web_s, 0.95), 3),
            "max": round(max(web_s), 3),
        },
        "cpython_wall_s": {
            "p50": round(quantile(cp_s, 0.5), 3),
            "p95": round(quantile(cp_s, 0.95), 3),
            "max": round(max(cp_s), 3),
        },
        "cpu_s": {"browser": round(web_cpu, 2), "cpython": round(cp_cpu, 2)},
        "wall_s": {"browser": round(web_wall, 1), "cpython": round(cp_wall, 1)},
        "slowdown_cpu": round(cpu_ratio, 2),
        "slowdown_wall_median": round(ratios[len(ratios) // 2], 2),
        "pyodide_cpu_estimate_s": {
            q: round(quantile(cp_s, p) * cp_cpu / cp_wall * cpu_ratio, 3) for q, p in (("p50", 0.5), ("p95", 0.95))
        }
        | {"max": round(max(cp_s) * cp_cpu / cp_wall * cpu_ratio, 3)},
    }


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
    ap.add_argument("--compare", action="store_true", help="Pyodide against CPython on the same search decisions (only)")
    ap.add_argument("--bot", default="search:time=30", help="--compare: the search bot spec")
    ap.add_argument("--rules", default="", help="--compare: rules preset (default classic)")
    ap.add_argument("--deals", type=int, default=1, help="--compare: rounds of heuristic play")
    ap.add_argument("--every", type=int, default=4, help="--compare: time every this-many-th play")
    args = ap.parse_args(argv)
    root = Path(args.build)
    if not (root / "build.json").is_file():
        print(f"no build in {root}: run ./scripts/build-web {root}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server = StaticServer(root)
    result: dict[str, object] = {"build": json.loads((root / "build.json").read_text())}
    if args.compare:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                out = compare(args, browser, server)
                browser.close()
        finally:
            server.stop()
        print(json.dumps(out, indent=1))
        return 0
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
