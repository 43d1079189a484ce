// @ts-check
// What a player keeps track of during a round, from public play only: the point cards each
// trick's winner took (the attackers' scored cards), the points still in play, and the card
// counter (记牌器): how many cards of each suit and of trump the others may still hold.
import { rankOf, suitOf } from "./cards.js";

/**
 * @typedef {import("./wire").WireEvent} WireEvent
 * @typedef {{ seat: number, cards: string[] }} Play
 */

/** @param {string} card @returns {number} the points a card is worth (5s, 10s and Ks) */
export function cardPoints(card) {
  const r = rankOf(card);
  return r === "5" ? 5 : r === "10" || r === "K" ? 10 : 0;
}

const RANK_OF_LEVEL = { 11: "J", 12: "Q", 13: "K", 14: "A" };

/**
 * The suit a card follows as: "T" for trump (jokers, level cards, the trump suit), else its suit.
 * @param {string} card
 * @param {string | null} trump the trump suit letter, null in no-trump
 * @param {number} level 2..14
 */
export function effectiveSuit(card, trump, level) {
  const s = suitOf(card);
  if (s === "J") return "T";
  const levelRank = /** @type {Record<number, string>} */ (RANK_OF_LEVEL)[level] || String(level);
  if (rankOf(card) === levelRank || s === trump) return "T";
  return s;
}

export const GROUPS = ["T", "S", "H", "C", "D"];

/** @param {number} decks @returns {string[]} every card of the game's decks */
export function fullDeck(decks) {
  const out = [];
  for (let d = 0; d < decks; d++) {
    for (const s of "SHCD") for (const r of ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]) out.push(s + r);
    out.push("LJ", "BJ");
  }
  return out;
}

/** The round so far, built from the event stream (the server resends a round's events on reload). */
export class RoundTally {
  constructor() {
    /** @type {Play[]} plays of the trick in progress */
    this.current = [];
    /** @type {{ plays: Play[], winner: number }[]} */
    this.tricks = [];
  }

  reset() {
    this.current = [];
    this.tricks = [];
  }

  /** @param {WireEvent} e */
  add(e) {
    switch (e.e) {
      case "round_started": case "redealt": this.reset(); break;
      case "played": this.current.push({ seat: e.seat, cards: e.cards }); break;
      case "trick_ended": this.tricks.push({ plays: this.current, winner: e.winner }); this.current = []; break;
      default: break;
    }
  }

  /**
   * The point cards in the tricks that ``scorers`` won, in the order they were taken.
   * @param {(seat: number) => boolean} scorers
   */
  scoredCards(scorers) {
    return this.tricks.filter((tr) => scorers(tr.winner)).flatMap((tr) => tr.plays.flatMap((p) => p.cards)).filter((c) => cardPoints(c) > 0);
  }

  /** @returns {string[]} every card played this round, the trick in progress included */
  played() {
    return [...this.tricks.flatMap((tr) => tr.plays), ...this.current].flatMap((p) => p.cards);
  }

  /**
   * Points not taken in a trick yet: in the hands and the kitty.
   * @param {number} decks
   */
  pointsLeft(decks) {
    const taken = this.tricks.flatMap((tr) => tr.plays.flatMap((p) => p.cards)).reduce((sum, c) => sum + cardPoints(c), 0);
    return 100 * decks - taken;
  }

  /**
   * The card counter: for trump and each plain suit, how many cards nobody has played yet and
   * the viewer cannot see (not in their hand, nor in the kitty they buried).
   * @param {{ decks: number, trump: string | null, level: number, hand: string[], kitty: string[] | null }} seen
   * @returns {Record<string, number>}
   */
  unseen(seen) {
    /** @type {Record<string, number>} */
    const out = { T: 0, S: 0, H: 0, C: 0, D: 0 };
    const gone = new Map();
    for (const c of [...this.played(), ...seen.hand, ...(seen.kitty || [])]) gone.set(c, (gone.get(c) || 0) + 1);
    for (const c of fullDeck(seen.decks)) {
      const n = gone.get(c) || 0;
      if (n > 0) { gone.set(c, n - 1); continue; }
      out[effectiveSuit(c, seen.trump, seen.level)] += 1;
    }
    return out;
  }
}
