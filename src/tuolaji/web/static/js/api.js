// @ts-check
// The HTTP API and what the browser keeps: the player's token and name.
import { lang } from "./i18n.js";
// setApiHandler() swaps the network for another implementation (an offline build answers in-page).

/**
 * @typedef {{ method?: string, body?: unknown, headers?: Record<string, string> }} ApiOptions
 * @typedef {(path: string, opts: ApiOptions) => Promise<any>} ApiHandler
 */

export function token() { return localStorage.getItem("tuolaji.token") || ""; }
/** @param {string | null | undefined} tk */
export function setToken(tk) { if (tk) localStorage.setItem("tuolaji.token", tk); }
export function savedName() { return localStorage.getItem("tuolaji.name") || ""; }

/** @type {ApiHandler} */
async function fetchApi(path, opts) {
  /** @type {Record<string, string>} */
  // the page's language, so the server's refusals are in it (not the browser's preference)
  const headers = Object.assign({ "X-Tuolaji-Token": token(), "X-Tuolaji-Lang": lang() }, opts.headers || {});
  // a room with a password: its record, replays and information need it too (table.js keeps it)
  const room = /^\/api\/games\/([A-Za-z0-9]+)/.exec(path);
  const password = room ? sessionStorage.getItem(`tuolaji.password.${room[1].toUpperCase()}`) : null;
  if (password) headers["X-Tuolaji-Password"] = password;
  let body = opts.body;
  if (body !== undefined && typeof body !== "string") {
    body = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  const res = await fetch(path, { method: opts.method || "GET", headers, body: /** @type {string | undefined} */ (body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

let handler = fetchApi;

/** @param {ApiHandler} fn */
export function setApiHandler(fn) { handler = fn; }

/**
 * Call the API; the answer's type is the caller's (see wire.d.ts: InfoResponse, GamesResponse, …).
 * @param {string} path
 * @param {ApiOptions} [opts]
 * @returns {Promise<any>} the JSON answer; rejects with the server's error text
 */
export function api(path, opts = {}) { return handler(path, opts); }
