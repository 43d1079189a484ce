// @ts-check
// Cards as SVG, drawn here (no image files): "S10", "HA", "LJ", "BJ".
import { lang } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_EN = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };
const SUIT_ZH = { S: "黑桃", H: "红桃", C: "梅花", D: "方块" };
const RANK_EN = { J: "jack", Q: "queen", K: "king", A: "ace" };

export function suitOf(card) { return card === "LJ" || card === "BJ" ? "J" : card[0]; }
export function rankOf(card) { return card.slice(1); }
export function isRed(card) { return card === "BJ" || card[0] === "H" || card[0] === "D"; }

export function cardText(card) {
  if (card === "BJ") return lang() === "zh" ? "大王" : "Big Joker";
  if (card === "LJ") return lang() === "zh" ? "小王" : "Small Joker";
  return SUIT_SYMBOL[card[0]] + card.slice(1);
}

export function cardsText(cards) { return (cards || []).map(cardText).join(" "); }

export function cardLabel(card) {
  if (card === "BJ") return lang() === "zh" ? "大王" : "big joker";
  if (card === "LJ") return lang() === "zh" ? "小王" : "small joker";
  const r = card.slice(1);
  if (lang() === "zh") return SUIT_ZH[card[0]] + r;
  return `${RANK_EN[r] || r} of ${SUIT_EN[card[0]]}`;
}

export function suitText(s) {
  if (!s) return null;
  return SUIT_SYMBOL[s] || s;
}

const cache = new Map();

/** @param {string} card "BJ" or "LJ" */
function jokerName(card) {
  if (lang() === "zh") return card === "BJ" ? "大王" : "小王";
  return card === "BJ" ? "BIG" : "SMALL";
}

// The SVG markup of one card face (or the back with card === null). A joker's face names it in the
// page's language: 大王/小王, or BIG/SMALL beside the JOKER letters.
export function cardSvg(card) {
  const joker = card === "BJ" || card === "LJ";
  const key = joker ? `${card}:${lang()}` : card || "back";
  if (cache.has(key)) return cache.get(key);
  let body;
  if (!card) {
    body = `<rect x="1" y="1" width="58" height="82" rx="5" fill="#1d4f8f" stroke="#fff" stroke-width="2"/>
      <rect x="6" y="6" width="48" height="72" rx="3" fill="none" stroke="#9cc2ff" stroke-width="1.2"/>
      <path d="M30 16 L44 42 L30 68 L16 42 Z" fill="#2f6fbf" stroke="#9cc2ff" stroke-width="1"/>`;
  } else if (joker) {
    const color = card === "BJ" ? "#c8102e" : "#222";
    const letters = "JOKER".split("").map((ch, i) =>
      `<text x="8" y="${16 + i * 10}" font-size="9" font-weight="700" fill="${color}" text-anchor="middle">${ch}</text>`).join("");
    body = `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fff" stroke="#888"/>${letters}
      <text x="34" y="54" font-size="30" fill="${color}" text-anchor="middle">★</text>
      <text x="34" y="74" font-size="9" font-weight="700" fill="${color}" text-anchor="middle">${jokerName(card)}</text>`;
  } else {
    const s = card[0];
    const r = card.slice(1);
    const color = isRed(card) ? "#c8102e" : "#111";
    const sym = SUIT_SYMBOL[s];
    const size = r === "10" ? 15 : 17;
    body = `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fff" stroke="#888"/>
      <text x="4" y="17" font-size="${size}" font-weight="700" fill="${color}" font-family="Georgia, 'Times New Roman', serif"${r === "10" ? ' letter-spacing="-1.5"' : ""}>${r}</text>
      <text x="5" y="32" font-size="14" fill="${color}">${sym}</text>
      <text x="33" y="62" font-size="34" fill="${color}" text-anchor="middle">${sym}</text>`;
  }
  const svg = `<svg viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">${body}</svg>`;
  cache.set(key, svg);
  return svg;
}

// A card element: <span class="card" data-card="HA">svg</span>
export function cardEl(card, { small = false, label = true } = {}) {
  const el = document.createElement("span");
  el.className = "card" + (small ? " small" : "") + (card ? "" : " back");
  if (card) {
    el.dataset.card = card;
    if (label) {
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", cardLabel(card));
    }
  }
  el.innerHTML = cardSvg(card);
  return el;
}

export function cardRow(cards, opts = {}) {
  const row = document.createElement("span");
  row.className = "card-row" + (opts.small ? " small" : "");
  for (const c of cards || []) row.appendChild(cardEl(c, opts));
  if (opts.label !== false) {
    row.setAttribute("role", "img");
    row.setAttribute("aria-label", (cards || []).map(cardLabel).join(", "));
    for (const ch of row.children) { ch.removeAttribute("role"); ch.removeAttribute("aria-label"); }
  }
  return row;
}
