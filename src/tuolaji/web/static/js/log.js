// @ts-check
// The game log beside the table: one line per event worth reading, in the player's language.
import { t } from "./i18n.js";
import { cardText, cardsText, suitText } from "./cards.js";

/**
 * @typedef {import("./wire").WireEvent} WireEvent
 * @typedef {import("./wire").StateMsg} StateMsg
 */

/**
 * What a failed throw costs its thrower under the table's rules: points, coins (half the stake,
 * with a stake set), or nothing.
 * @param {Record<string, any> | null} rules
 * @returns {{ points: number } | { coins: number } | null}
 */
export function throwPenalty(rules) {
  if (!rules) return null;
  if (rules.throw_penalty === "points") return { points: rules.throw_penalty_points };
  if (rules.throw_penalty === "stake" && rules.stake > 0) return { coins: Math.floor(rules.stake / 2) };
  return null;
}

/**
 * The log line for one event, or null for events not worth a line (dealt cards, passes, plain plays).
 * @param {WireEvent} e
 * @param {(seat: number) => string} name
 * @param {Record<string, any> | null} [rules] the table's rules (a failed throw's penalty)
 * @returns {string | null}
 */
export function eventLine(e, name, rules = null) {
  switch (e.e) {
    case "declared": return t("ev_declared", { name: name(e.seat), cards: cardsText(e.cards) });
    case "trump_fixed": return t("ev_trump_fixed", { trump: e.trump === null ? t("no_trump") : suitText(e.trump), name: name(e.dealer) });
    case "buried": return t("ev_buried", { name: name(e.seat) });
    case "played": {
      if (!e.attempted) return null;
      const line = e.beaten_by !== undefined && e.beating
        ? t("ev_failed_throw_by", { name: name(e.seat), tried: cardsText(e.attempted), by: name(e.beaten_by), beating: cardsText(e.beating), cards: cardsText(e.cards) })
        : t("ev_failed_throw", { name: name(e.seat), tried: cardsText(e.attempted), cards: cardsText(e.cards) });
      const cost = throwPenalty(rules);
      return cost === null ? line : line + ("coins" in cost ? t("ev_penalty_coins", { c: cost.coins }) : t("ev_penalty_points", { p: cost.points }));
    }
    case "trick_ended": return t("ev_trick", { name: name(e.winner), p: e.points });
    case "redeal_requested": return t("ev_redeal_requested", { name: name(e.seat) });
    case "redealt": return t("ev_redealt");
    case "round_ended": return t("ev_round", { p: e.attacker_points });
    case "friend_called": return e.nth ? t("ev_friend_called_nth", { name: name(e.seat), n: e.nth, card: cardText(e.card) })
      : t("ev_friend_called", { name: name(e.seat), card: cardText(e.card) });
    case "surrender_proposed": return t("ev_surrender_proposed", { name: name(e.seat) });
    case "surrender_answered": return t(e.accept ? "ev_surrender_accepted" : "ev_surrender_declined", { name: name(e.seat) });
    case "friend_revealed": return e.seat === null ? t("ev_friend_none", { n: (e.call ?? 0) + 1 }) : t("ev_friend_revealed", { name: name(e.seat) });
    case "round_started": return `— ${t("round_n", { n: e.number })} —`;
    default: return null;
  }
}

export class GameLog {
  constructor() {
    /** @type {({ e: WireEvent } | { skipped: number })[]} the events worth a line, worded when shown (the language may change) */
    this.items = [];
    /** @type {string | null} the kind of the last event read (a requested redeal needs no second line) */
    this.last = null;
  }

  /**
   * Keep a state's new events that make a line. A client that fell far behind is sent only the
   * latest events, and `events_skipped` counts the rest: the log says so instead of pretending it
   * is whole.
   * @param {StateMsg} m
   */
  add(m) {
    if (m.events_skipped) this.items.push({ skipped: m.events_skipped });
    for (const e of m.events || []) {
      const shown = !(e.e === "redealt" && this.last === "redeal_requested") && eventLine(e, () => "", null) !== null;
      this.last = e.e;
      if (shown) this.items.push({ e });
    }
    if (this.items.length > 200) this.items.splice(0, this.items.length - 100);
  }

  /**
   * The last ``n`` lines in the page's language now.
   * @param {number} n
   * @param {(seat: number) => string} name
   * @param {Record<string, any> | null} [rules] the table's rules
   * @returns {string[]}
   */
  lines(n, name, rules = null) {
    return this.items.slice(-n).map((x) => ("skipped" in x ? t("ev_skipped", { n: x.skipped }) : eventLine(x.e, name, rules) || ""));
  }
}
