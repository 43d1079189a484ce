// @ts-check
// DOM helpers: h() builds an element, swap() redraws a region only when its markup changed.

/**
 * @typedef {Node | string | number | null | undefined | false} Child
 * @typedef {Record<string, any>} Attrs  "class", "text", "dataset", "onclick"-style listeners, or attributes
 */

/** The listeners h() attached, by element and event type; read when the event fires (see swap). */
const HANDLERS = new WeakMap();

/**
 * @param {Element} el
 * @param {string} type
 * @param {(e: any) => void} fn
 */
function listen(el, type, fn) {
  let map = HANDLERS.get(el);
  if (!map) { map = new Map(); HANDLERS.set(el, map); }
  if (!map.has(type)) el.addEventListener(type, (e) => { const f = HANDLERS.get(el).get(type); if (f) f(e); });
  map.set(type, fn);
}

/**
 * An element with attributes, listeners ("onclick": fn) and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) listen(el, k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

/**
 * Replace a region's children only when the markup changed, so a click that lands while a new
 * state arrives is not lost on a freshly rebuilt button. When the markup is the same, the kept
 * elements take the new listeners: a listener may close over data the markup does not show (the
 * coach's "why" text), and the old one would act on stale data.
 * @param {Element} target
 * @param {Element} box
 * @returns {boolean} whether the region was redrawn
 */
export function swap(target, box) {
  if (target.innerHTML === box.innerHTML) {
    const kept = target.querySelectorAll("*");
    const fresh = box.querySelectorAll("*");
    fresh.forEach((el, i) => {
      const map = HANDLERS.get(el);
      if (!map) return;
      for (const [type, fn] of map) listen(kept[i], type, fn);
    });
    return false;
  }
  target.replaceChildren(...box.childNodes);
  return true;
}

/** @param {string} text */
export function toast(text) {
  const el = h("div", { class: "toast", role: "status" }, text);
  document.body.appendChild(el);
  setTimeout(() => el.remove(), 2400);
}

/**
 * The text of a caught error.
 * @param {unknown} e
 */
export function errorText(e) { return e instanceof Error ? e.message : String(e); }
