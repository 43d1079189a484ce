// The offline build's entry point: starts the Python worker, shows how far loading has got,
// registers the service worker (so the next visit needs no network), and then starts the same
// client the server serves, with the worker as its transport (static/js/transport.js).
import { useBackend } from "../js/transport.js";
import { t } from "../js/i18n.js";

const bootT0 = performance.now();
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const pending = new Map();
const tables = new Map();
let nextId = 1;
let resolveReady;
let rejectReady;
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

/** @type {{ timings?: Record<string, number>, ms?: number }} */
const boot = {};
// @ts-ignore: read by the tests and the start-time benchmark
window.tuolajiBoot = boot;

worker.onmessage = (ev) => {
  const m = ev.data;
  if (m.kind === "progress") {
    if (m.stage === "download") {
      const mb = (n) => (n / 1e6).toFixed(1);
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
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (p) p(JSON.parse(m.text));
  } else if (m.kind === "table") {
    const sock = tables.get(m.conn);
    if (!sock) return;
    if (m.text === "") { sock.closed = true; tables.delete(m.conn); if (sock.onclose) sock.onclose(); }
    else if (sock.onmessage) sock.onmessage(m.text);
  }
};
worker.onerror = (e) => { label.textContent = t("boot_failed", { message: e.message || "worker" }); rejectReady(new Error(e.message)); };

const header = (headers, name) => {
  for (const [k, v] of Object.entries(headers || {})) if (k.toLowerCase() === name) return v;
  return "";
};

useBackend({
  offline: true,
  async request(method, path, body, headers) {
    await ready;
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      worker.postMessage({ kind: "request", id, method, path, body: body || "",
        token: header(headers, "x-tuolaji-token"), lang: header(headers, "accept-language") });
    });
  },
  connect(code) {
    const conn = nextId++;
    const sock = {
      onopen: null, onmessage: null, onclose: null, closed: false, open: false,
      send(text) { if (sock.open && !sock.closed) worker.postMessage({ kind: "send", conn, text }); },
      close() { if (!sock.closed) { sock.closed = true; tables.delete(conn); worker.postMessage({ kind: "close", conn }); } },
      isOpen() { return sock.open && !sock.closed; },
    };
    tables.set(conn, sock);
    ready.then(() => {
      if (sock.closed) return;
      const lang = localStorage.getItem("tuolaji.lang") || "en";
      worker.postMessage({ kind: "open", conn, code, lang });
      sock.open = true;
      if (sock.onopen) sock.onopen();
    }, () => {});
    return sock;
  },
});

if ("serviceWorker" in navigator && (location.protocol === "https:" || location.hostname === "localhost" || location.hostname === "127.0.0.1")) {
  navigator.serviceWorker.register(new URL("../../sw.js", import.meta.url), { scope: new URL("../../", import.meta.url).pathname })
    .catch((e) => console.warn("no service worker:", e));
}

await import("../js/app.js");
