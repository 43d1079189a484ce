// @ts-check
// The player's hand: cards grouped by effective suit, selection by click or keyboard, the
// legal-play marks the server sends (playable, required, from the kitty), and live checking
// of the selection against the rules.
import { t } from "./i18n.js";
import { cardEl, cardLabel } from "./cards.js";
import { h, swap } from "./dom.js";
import { flyIn } from "./fx.js";
import { effectiveSuit } from "./tally.js";

/** @typedef {import("./table.js").TablePage} TablePage */

/**
 * A key per card of the hand ("HA#0", "HA#1"): two decks hold two copies of each card.
 * @param {TablePage} page
 * @returns {string[]}
 */
export function handKeys(page) {
  const v = page.view();
  /** @type {Record<string, number>} */
  const count = {};
  return (v ? v.hand : []).map((c) => { count[c] = (count[c] || 0) + 1; return `${c}#${count[c] - 1}`; });
}

/** @param {TablePage} page */
export function selectedCards(page) { return page.selected.map((k) => k.split("#")[0]); }

/** @param {TablePage} page */
export function renderHand(page) {
  const st = page.state;
  if (!st) return;
  const v = st.view;
  const handEl = page.handEl;
  const hadFocus = handEl.contains(document.activeElement);
  handEl.setAttribute("aria-label", t("your_hand"));
  handEl.hidden = page.me() === null;
  const el = document.createElement("div");
  const keys = handKeys(page);
  page.selected = page.selected.filter((k) => keys.includes(k));
  if (page.focusKey === null || !keys.includes(page.focusKey)) page.focusKey = keys[0] || null;
  const o = st.options;
  const eff = o ? o.eff : [];
  /** @type {Record<string, number>} */
  const kittyLeft = {};
  for (const c of (o && o.from_kitty) || []) kittyLeft[c] = (kittyLeft[c] || 0) + 1;
  v.hand.forEach((c, i) => {
    const key = keys[i];
    const sel = page.selected.includes(key);
    const classes = ["hand-card"];
    if (sel) classes.push("selected");
    if (i > 0 && eff.length && eff[i] !== eff[i - 1]) classes.push("group-start");
    if (o && o.playable && !o.playable[i]) classes.push("dim");
    if (o && o.required && o.required[i]) classes.push("required");
    if (kittyLeft[c]) { classes.push("from-kitty"); kittyLeft[c]--; }
    const item = h("div", {
      class: classes.join(" "), role: "option", "aria-selected": sel ? "true" : "false", tabindex: key === page.focusKey ? "0" : "-1",
      "data-key": key, "data-card": c, "data-trump": String(effectiveSuit(c, v.trump, v.level) === "T"), "aria-label": cardLabel(c) + (classes.includes("from-kitty") ? `, ${t("from_kitty")}` : ""),
      onclick: () => { page.focusKey = key; toggle(page, key); },
    }, cardEl(c, { label: false }));
    el.appendChild(item);
  });
  // the hand fits one row by overlapping its cards more (style.css)
  handEl.style.setProperty("--hand-cards", String(v.hand.length));
  handEl.style.setProperty("--hand-groups", String(el.querySelectorAll(".group-start").length));
  if (!swap(handEl, el)) return;
  if (hadFocus && page.focusKey) focusCard(page, page.focusKey);
  // cards new to the hand (dealt, or the kitty picked up) fly in from the deck; not on a page's first draw
  const seen = page.handSeen;
  page.handSeen = new Set(keys);
  if (seen === null || keys.length <= seen.size) return;
  const deck = (page.felt.querySelector("#deal-info") || page.felt).getBoundingClientRect();
  for (const item of handEl.children) {
    const key = /** @type {HTMLElement} */ (item).dataset.key;
    if (key && !seen.has(key)) flyIn(item, deck, "deal", 220);
  }
}

/**
 * @param {TablePage} page
 * @param {string} key
 */
function focusCard(page, key) {
  const f = /** @type {HTMLElement | null} */ (page.handEl.querySelector(`[data-key="${CSS.escape(key)}"]`));
  if (f) f.focus();
}

/**
 * Select or unselect one card, then ask the server whether the selection is legal.
 * @param {TablePage} page
 * @param {string} key
 */
export function toggle(page, key) {
  if (page.readonly) return;
  const i = page.selected.indexOf(key);
  if (i >= 0) page.selected.splice(i, 1); else page.selected.push(key);
  page.checkResult = null;
  page.coachMsg = null;
  renderHand(page);
  checkSelection(page);
  page.renderActions();
}

/**
 * Select these cards (a hint), one hand card per listed card.
 * @param {TablePage} page
 * @param {string[]} cards
 */
export function selectCards(page, cards) {
  const keys = handKeys(page);
  /** @type {string[]} */
  const picked = [];
  for (const c of cards) {
    const k = keys.find((x) => x.split("#")[0] === c && !picked.includes(x));
    if (k) picked.push(k);
  }
  page.selected = picked;
  renderHand(page);
  checkSelection(page);
}

/** @param {TablePage} page */
export function checkSelection(page) {
  const o = page.state && page.state.options;
  if (!o || !o.turn || !page.selected.length) { page.pendingCheck = null; return; }
  if (o.phase === "play") page.pendingCheck = page.send({ type: "check", action: "play", cards: selectedCards(page) });
  else if (o.phase === "bury" && page.selected.length === o.bury) page.pendingCheck = page.send({ type: "check", action: "bury", cards: selectedCards(page) });
}

/**
 * Arrow keys move along the hand, space selects, Enter plays.
 * @param {TablePage} page
 * @param {KeyboardEvent} e
 */
export function onHandKey(page, e) {
  const keys = handKeys(page);
  const i = page.focusKey === null ? -1 : keys.indexOf(page.focusKey);
  /** @param {number} j */
  const move = (j) => {
    j = Math.max(0, Math.min(keys.length - 1, j));
    const key = keys[j];
    page.focusKey = key;
    for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (page.handEl.children)) el.tabIndex = el.dataset.key === key ? 0 : -1;
    focusCard(page, key);
  };
  if (e.key === "ArrowRight" || e.key === "ArrowDown") { e.preventDefault(); move(i + 1); }
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); move(i - 1); }
  else if (e.key === "Home") { e.preventDefault(); move(0); }
  else if (e.key === "End") { e.preventDefault(); move(keys.length - 1); }
  else if (e.key === " " || e.key === "Spacebar") { e.preventDefault(); if (page.focusKey) toggle(page, page.focusKey); }
  else if (e.key === "Enter") { e.preventDefault(); page.primary(); }
}
