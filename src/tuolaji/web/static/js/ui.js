// @ts-check
// Small pieces every page shows: seat names, level and trump texts, the language button.
import { t, lang, setLang } from "./i18n.js";
import { suitText } from "./cards.js";
import { h, toast, errorText } from "./dom.js";
import { api } from "./api.js";

/** @typedef {import("./wire").RoundView} RoundView */

// Seats as the viewer sees the table: the viewer at the bottom, the others counter-clockwise in
// the order of play. Names follow the screen: in Chinese the way players say it (我, 下家 on the
// right, 对家 across, 上家 on the left); in English by compass with the viewer at South. A
// spectator sees seat 0 at the bottom. The server names seats the same way (server/seat_names.py).
const BY_SCREEN = {
  zh: { seated: ["我", "下家", "对家", "上家"], watching: ["南家", "东家", "北家", "西家"] },
  en: { seated: ["South", "East", "North", "West"], watching: ["South", "East", "North", "West"] },
};

/**
 * @param {number} seat
 * @param {number | null} viewer the viewer's seat (null: watching, seat 0 at the bottom)
 * @param {number} n players
 */
export function relSeat(seat, viewer, n) { return (seat - (viewer ?? 0) + n) % n; }

/**
 * The default name of a seat nobody named, as this viewer sees it.
 * @param {number} seat
 * @param {number} [players]
 * @param {number | null} [viewer] the viewer's seat; null (the default): watching
 * @returns {string}
 */
export function defaultName(seat, players = 4, viewer = null) {
  if (players !== 4) return t("seat_n", { n: seat + 1 });
  const names = BY_SCREEN[lang() === "zh" ? "zh" : "en"];
  return (viewer === null ? names.watching : names.seated)[relSeat(seat, viewer, players)] || "?";
}

/** @type {Record<number, string[]>} the felt's grid areas (style.css), by seat relative to the viewer */
const PLACES = {
  4: ["bottom", "right", "top", "left"],
  5: ["bottom", "right", "tr", "tl", "left"],
  6: ["bottom", "right", "tr", "top", "tl", "left"],
  7: ["bottom", "br", "right", "tr", "tl", "left", "bl"],
  8: ["bottom", "br", "right", "tr", "top", "tl", "left", "bl"],
};

/** @param {number} rel @param {number} n @returns {string} where that seat sits on the felt */
export function seatPlace(rel, n) {
  const places = PLACES[n] || PLACES[4] || [];
  return places[rel % places.length] || "top";
}

/** @param {number} rank 2..14, 15: the joker level (打王) */
export function levelText(rank) {
  return rank === 15 ? t("level_jokers") : { 11: "J", 12: "Q", 13: "K", 14: "A" }[rank] || String(rank);
}

/**
 * A level as the server names it ("2".."A", "王" for the joker level), in the page's language.
 * @param {string} name
 */
export function levelLabel(name) {
  return name === "王" ? t("level_jokers") : name;
}

/**
 * "♥7", "no-trump 7", or "7 · not set yet" while trump is open.
 * @param {RoundView | null | undefined} view
 */
export function trumpText(view) {
  if (!view) return "";
  const s = view.trump;
  if (s) return `${suitText(s)}${levelText(view.level)}`;
  if (view.trump_fixed || (view.bid && view.bid.cards && view.bid.cards[0] && view.bid.cards[0].endsWith("J")))
    return `${t("no_trump")} ${levelText(view.level)}`;
  return `${levelText(view.level)} · ${t("trump_open")}`;
}

/** @type {Record<string, string>} */
export const PHASE_KEYS = {
  deal: "phase_deal", declare: "phase_declare", bury: "phase_bury", play: "phase_play", done: "phase_done",
  override: "phase_override", call_friend: "phase_call_friend", surrender: "phase_surrender",
};

/** @param {() => void} onChange called after the language changed */
export function langButton(onChange) {
  return h("button", {
    class: "lang", type: "button", "aria-label": lang() === "zh" ? "Switch to English" : "切换到中文",
    onclick: () => { setLang(lang() === "zh" ? "en" : "zh"); onChange(); },
  }, t("language"));
}

/**
 * "Export": the game's record file, saved through the API (so the offline build, which has no
 * server to link to, exports the same file).
 * @param {string} code
 */
export function exportLink(code) {
  const path = `/api/games/${code}/record`;
  return h("a", { class: "button", href: path, "data-export": code, download: `tuolaji-${code}.json`, onclick: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const record = await api(path);
      const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
      const a = h("a", { href: url, download: `tuolaji-${code}.json` });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) { toast(errorText(err)); }
  } }, t("export"));
}

/**
 * Coins with their sign: +300, −150, 0.
 * @param {number} n
 */
export function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0"; }
