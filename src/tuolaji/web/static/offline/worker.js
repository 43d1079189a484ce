// The offline build's table server: Pyodide in a Web Worker running tuolaji's own Python rooms
// (tuolaji.offline.host). The page talks to it through the client's two seams:
//   the API (boot.js → api.js setApiHandler):
//     page → worker {kind: "request", id, method, path, body, token, lang}; worker → page {kind: "response", id, text}
//   tables (transport.js postMessageTransport), one connection per conn number:
//     page → worker {conn, room, open: true} | {conn, msg} | {conn, close: true}
//     worker → page {conn, open: true} | {conn, msg} | {conn, lost: true}
//   loading: worker → page {kind: "progress", stage, loaded, total} | {kind: "ready", timings} | {kind: "failed", message}
// Games are kept in IndexedDB ("tuolaji", stores "saves" and "meta"), written by the Python side.
import { loadPyodide } from "../../pyodide/pyodide.mjs";

const root = new URL("../../", import.meta.url);
const t0 = performance.now();
const timings = {};
const mark = (name) => { timings[name] = Math.round(performance.now() - t0); };

// ---------------------------------------------------------------- IndexedDB saves
function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open("tuolaji", 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore("saves");
      req.result.createObjectStore("meta");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function saveStore(db) {
  const run = (stores, mode, fn) => new Promise((resolve, reject) => {
    const tx = db.transaction(stores, mode);
    let result;
    fn(tx, (r) => { result = r; });
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error("IndexedDB transaction aborted"));
  });
  // every value is JSON text (the Python side makes and reads it); a missing key reads as ""
  return {
    put: (code, save, meta) => run(["saves", "meta"], "readwrite", (tx) => {
      tx.objectStore("saves").put(save, code);
      tx.objectStore("meta").put(meta, code);
    }),
    get: (code) => run(["saves"], "readonly", (tx, done) => {
      const r = tx.objectStore("saves").get(code);
      r.onsuccess = () => done(typeof r.result === "string" ? r.result : (r.result === undefined ? "" : JSON.stringify(r.result)));
    }),
    list: () => run(["meta"], "readonly", (tx, done) => {
      const r = tx.objectStore("meta").getAll();
      r.onsuccess = () => done(JSON.stringify(r.result.filter((x) => typeof x === "string")));
    }),
    delete: (code) => run(["saves", "meta"], "readwrite", (tx) => {
      tx.objectStore("saves").delete(code);
      tx.objectStore("meta").delete(code);
    }),
  };
}

// ---------------------------------------------------------------- start
async function fetchWithProgress(files) {
  // download the big files first, so the page can show how far the first visit has got;
  // Pyodide then finds them in the HTTP cache or the service worker's cache
  const sizes = await Promise.all(files.map(async (f) => {
    const res = await fetch(new URL(f, root));
    if (!res.ok) throw new Error(`${f}: HTTP ${res.status}`);
    return res;
  }));
  const total = sizes.reduce((n, r) => n + Number(r.headers.get("content-length") || 0), 0);
  let loaded = 0;
  const out = {};
  await Promise.all(sizes.map(async (res, i) => {
    const reader = res.body.getReader();
    const chunks = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      postMessage({ kind: "progress", stage: "download", loaded, total });
    }
    out[files[i]] = await new Blob(chunks).arrayBuffer();
  }));
  return out;
}

// Messages are handled one after another, in order: opening a table loads its save (an await),
// and the page's "hello" right behind it must not overtake it.
let host = null;
let unblock;
let chain = new Promise((resolve) => { unblock = resolve; });
self.onmessage = (ev) => { chain = chain.then(() => dispatch(ev.data)); };

async function start() {
  postMessage({ kind: "progress", stage: "download", loaded: 0, total: 0 });
  const files = await fetchWithProgress(["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "py/tuolaji.zip"]);
  mark("downloaded");
  postMessage({ kind: "progress", stage: "python" });
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", root).href, stdout: (s) => console.log(s), stderr: (s) => console.warn(s) });
  mark("python");
  postMessage({ kind: "progress", stage: "game" });
  pyodide.unpackArchive(files["py/tuolaji.zip"], "zip", { extractDir: "/home/pyodide/tuolaji-lib" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/tuolaji-lib')");
  const db = await openDb();
  const startHost = pyodide.runPython("from tuolaji.offline.host import start; start");
  // the room's messages arrive as JSON text (as the server would send them); "" = closed
  host = startHost(saveStore(db), (conn, text) => postMessage(text === "" ? { conn, lost: true } : { conn, msg: JSON.parse(text) }));
  mark("ready");
  postMessage({ kind: "ready", timings });
  unblock();
}

async function dispatch(m) {
  try {
    if (m.kind === "request") {
      const text = await host.request(m.method, m.path, m.body || "", m.token || "", m.lang || "en");
      postMessage({ kind: "response", id: m.id, text });
    } else if (m.conn !== undefined && m.open) {
      // the page's language comes with its "hello"; until then (a refusal to open) the browser's
      if (await host.open(m.conn, m.room, navigator.language || "en")) postMessage({ conn: m.conn, open: true });
    } else if (m.conn !== undefined && m.close) {
      host.close(m.conn);
    } else if (m.conn !== undefined && m.msg) {
      await host.message(m.conn, JSON.stringify(m.msg));
    }
  } catch (e) {
    console.error(e);
    if (m.kind === "request") postMessage({ kind: "response", id: m.id, text: JSON.stringify({ status: 500, data: { error: String(e), code: "internal" } }) });
  }
}

start().catch((e) => { console.error(e); postMessage({ kind: "failed", message: String(e && e.message || e) }); });
