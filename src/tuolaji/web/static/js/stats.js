// @ts-check
// The player's statistics, kept in this browser's local storage: rounds and matches played and
// won per difficulty and rule set, levels gained, the best run of rounds won. A round counts once
// (by room and round number), when its summary reaches the page.

const KEY = "tuolaji.stats";

/**
 * @typedef {{ rounds: number, roundsWon: number, matches: number, matchesWon: number, levels: number, streak: number, best: number }} Line
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
 * Count one finished round (and the match, when it ended with it).
 * @param {{ code: string, round: number, difficulty: string, rules: string, won: boolean, levels: number, matchOver: boolean, matchWon: boolean }} r
 */
export function recordRound(r) {
  const stats = loadStats();
  const id = `${r.code}:${r.round}`;
  if (stats.seen.includes(id)) return;
  stats.seen.push(id);
  if (stats.seen.length > 500) stats.seen.splice(0, stats.seen.length - 500);
  const key = `${r.difficulty}|${r.rules}`;
  const line = stats.lines[key] || { rounds: 0, roundsWon: 0, matches: 0, matchesWon: 0, levels: 0, streak: 0, best: 0 };
  line.rounds += 1;
  if (r.won) { line.roundsWon += 1; line.streak += 1; line.best = Math.max(line.best, line.streak); } else line.streak = 0;
  line.levels += r.levels;
  if (r.matchOver) { line.matches += 1; if (r.matchWon) line.matchesWon += 1; }
  stats.lines[key] = line;
  localStorage.setItem(KEY, JSON.stringify(stats));
}
