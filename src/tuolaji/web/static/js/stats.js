// @ts-check
// The player's statistics, kept in this browser's local storage: rounds and matches played and
// won per difficulty and rule set (a drawn match apart: played, neither won nor lost), levels
// gained, the best run of rounds won. A round counts once (by room and round number), when its
// summary reaches the page; a match once (by room), when the page sees it over — also when the
// clock ended it with no round finished.

const KEY = "tuolaji.stats";

/**
 * @typedef {{ rounds: number, roundsWon: number, matches: number, matchesWon: number, matchesDrawn?: number, levels: number, streak: number, best: number }} Line
 * @typedef {{ lines: Record<string, Line>, seen: string[] }} Stats
 */

/** @returns {Stats} */
export function loadStats() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    if (data && typeof data === "object" && data.lines && Array.isArray(data.seen)) return data;
  } catch (_e) {
    // a damaged entry starts again
  }
  return { lines: {}, seen: [] };
}

/**
 * @param {Stats} stats
 * @param {string} id
 * @returns {boolean} whether ``id`` is new (and now seen)
 */
function firstTime(stats, id) {
  if (stats.seen.includes(id)) return false;
  stats.seen.push(id);
  if (stats.seen.length > 500) stats.seen.splice(0, stats.seen.length - 500);
  return true;
}

/**
 * @param {Stats} stats
 * @param {string} key
 * @returns {Line}
 */
function lineOf(stats, key) {
  stats.lines[key] = stats.lines[key] || { rounds: 0, roundsWon: 0, matches: 0, matchesWon: 0, matchesDrawn: 0, levels: 0, streak: 0, best: 0 };
  return stats.lines[key];
}

/**
 * Count one finished round.
 * @param {{ code: string, round: number, difficulty: string, rules: string, won: boolean, levels: number }} r
 */
export function recordRound(r) {
  const stats = loadStats();
  if (!firstTime(stats, `${r.code}:${r.round}`)) return;
  const line = lineOf(stats, `${r.difficulty}|${r.rules}`);
  line.rounds += 1;
  if (r.won) { line.roundsWon += 1; line.streak += 1; line.best = Math.max(line.best, line.streak); } else line.streak = 0;
  line.levels += r.levels;
  localStorage.setItem(KEY, JSON.stringify(stats));
}

/**
 * Count one finished match: won, lost, or drawn (a timed match with no side ahead).
 * @param {{ code: string, difficulty: string, rules: string, result: "won" | "lost" | "drawn" }} r
 */
export function recordMatch(r) {
  const stats = loadStats();
  if (!firstTime(stats, `${r.code}:match`)) return;
  const line = lineOf(stats, `${r.difficulty}|${r.rules}`);
  line.matches += 1;
  if (r.result === "won") line.matchesWon += 1;
  if (r.result === "drawn") line.matchesDrawn = (line.matchesDrawn || 0) + 1;
  localStorage.setItem(KEY, JSON.stringify(stats));
}
