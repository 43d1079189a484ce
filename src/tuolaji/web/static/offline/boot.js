// @ts-check
// The offline build's entry point: starts the Python worker, shows how far loading has got,
// registers the service worker (so the next visit needs no network), and then starts the same
// client the server serves, with the worker behind its two seams: the API (api.js
// setApiHandler) and the table transport (transport.js postMessageTransport).
import { setApiHandler, token } from "../js/api.js";
import { setTransportFactory, postMessageTransport } from "../js/transport.js";
import { useHashRoutes } from "../js/nav.js";
import { t, lang } from "../js/i18n.js";

const bootT0 = performance.now();
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
/** @type {Map<number, (answer: { status: number, data: any }) => void>} */
const pending = new Map();
let nextId = 1;
/** @type {() => void} */
let resolveReady = () => {};
/** @type {(e: Error) => void} */
let rejectReady = () => {};
/** @type {Promise<void>} */
const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
ready.catch(() => {});

// the progress indicator: a bar over the page until the runtime is up
const box = document.createElement("div");
box.id = "boot";
box.setAttribute("role", "status");
const label = document.createElement("p");
const bar = document.createElement("progress");
bar.max = 1;
box.append(label, bar);
document.body.appendChild(box);
label.textContent = t("boot_download", { loaded: "0", total: "…" });

/** @type {{ timings?: Record<string, number>, ms?: number }} read by the tests and bench_offline.py */
const boot = {};
/** @type {any} */ (window).tuolajiBoot = boot;

/** @param {number} n */
const mb = (n) => (n / 1e6).toFixed(1);

worker.addEventListener("message", (ev) => {
  const m = ev.data;
  if (!m || !m.kind) return;  // the table transport's envelopes ({conn, ...}) are transport.js's
  if (m.kind === "progress") {
    if (m.stage === "download") {
      label.textContent = t("boot_download", { loaded: mb(m.loaded), total: m.total ? mb(m.total) : "…" });
      if (m.total) bar.value = 0.8 * m.loaded / m.total; else bar.removeAttribute("value");
    } else {
      label.textContent = t(m.stage === "python" ? "boot_python" : "boot_game");
      bar.value = m.stage === "python" ? 0.85 : 0.95;
    }
  } else if (m.kind === "ready") {
    boot.timings = m.timings;
    boot.ms = Math.round(performance.now() - bootT0);
    box.remove();
    resolveReady();
  } else if (m.kind === "failed") {
    label.textContent = t("boot_failed", { message: m.message });
    bar.remove();
    box.classList.add("failed");
    rejectReady(new Error(m.message));
  } else if (m.kind === "response") {
    const done = pending.get(m.id);
    pending.delete(m.id);
    if (done) done(JSON.parse(m.text));
  }
});
worker.addEventListener("error", (e) => {
  label.textContent = t("boot_failed", { message: e.message || "worker" });
  rejectReady(new Error(e.message));
});

useHashRoutes();
setTransportFactory(postMessageTransport(worker));
setApiHandler(async (path, opts) => {
  await ready;
  let body = opts.body;
  if (body !== undefined && typeof body !== "string") body = JSON.stringify(body);
  const id = nextId++;
  /** @type {{ status: number, data: any }} */
  const answer = await new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ kind: "request", id, method: opts.method || "GET", path, body: body || "", token: token(), lang: lang() });
  });
  if (answer.status < 200 || answer.status >= 300) throw new Error((answer.data && answer.data.error) || `HTTP ${answer.status}`);
  return answer.data;
});

if ("serviceWorker" in navigator && (location.protocol === "https:" || location.hostname === "localhost" || location.hostname === "127.0.0.1")) {
  navigator.serviceWorker.register(new URL("../../sw.js", import.meta.url), { scope: new URL("../../", import.meta.url).pathname })
    .catch((e) => console.warn("no service worker:", e));
}

await import("../js/app.js");
