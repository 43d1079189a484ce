// @ts-check
// The game log beside the table: one line per event worth reading, in the player's language.
import { t } from "./i18n.js";
import { cardText, cardsText, suitText } from "./cards.js";

/**
 * @typedef {import("./wire").WireEvent} WireEvent
 * @typedef {import("./wire").StateMsg} StateMsg
 */

/**
 * The log line for one event, or null for events not worth a line (dealt cards, passes, plain plays).
 * @param {WireEvent} e
 * @param {(seat: number) => string} name
 * @returns {string | null}
 */
export function eventLine(e, name) {
  switch (e.e) {
    case "declared": return t("ev_declared", { name: name(e.seat), cards: cardsText(e.cards) });
    case "trump_fixed": return t("ev_trump_fixed", { trump: e.trump === null ? t("no_trump") : suitText(e.trump), name: name(e.dealer) });
    case "buried": return t("ev_buried", { name: name(e.seat) });
    case "played":
      if (!e.attempted) return null;
      return e.beaten_by !== undefined && e.beating
        ? t("ev_failed_throw_by", { name: name(e.seat), tried: cardsText(e.attempted), by: name(e.beaten_by), beating: cardsText(e.beating), cards: cardsText(e.cards) })
        : t("ev_failed_throw", { name: name(e.seat), tried: cardsText(e.attempted), cards: cardsText(e.cards) });
    case "trick_ended": return t("ev_trick", { name: name(e.winner), p: e.points });
    case "redealt": return t("ev_redealt");
    case "round_ended": return t("ev_round", { p: e.attacker_points });
    case "friend_called": return e.nth ? t("ev_friend_called_nth", { name: name(e.seat), n: e.nth, card: cardText(e.card) })
      : t("ev_friend_called", { name: name(e.seat), card: cardText(e.card) });
    case "surrender_proposed": return t("ev_surrender_proposed", { name: name(e.seat) });
    case "surrender_answered": return t(e.accept ? "ev_surrender_accepted" : "ev_surrender_declined", { name: name(e.seat) });
    case "friend_revealed": return e.seat === null ? null : t("ev_friend_revealed", { name: name(e.seat) });
    case "round_started": return `— ${t("round_n", { n: e.number })} —`;
    default: return null;
  }
}

export class GameLog {
  constructor() {
    /** @type {string[]} */
    this.lines = [];
  }

  /**
   * Add the lines of a state's new events. A client that fell far behind is sent only the latest
   * events, and `events_skipped` counts the rest: the log says so instead of pretending it is whole.
   * @param {StateMsg} m
   * @param {(seat: number) => string} name
   */
  add(m, name) {
    if (m.events_skipped) this.lines.push(t("ev_skipped", { n: m.events_skipped }));
    for (const e of m.events || []) {
      const line = eventLine(e, name);
      if (line) this.lines.push(line);
    }
    if (this.lines.length > 200) this.lines.splice(0, this.lines.length - 100);
  }
}
