// @ts-check
// The table's dialogs: the lobby of a room for friends, and the summary after each round.
import { t, lang } from "./i18n.js";
import { cardRow, suitText } from "./cards.js";
import { h, toast } from "./dom.js";
import { savedName } from "./api.js";
import { follow, link, roomLink } from "./nav.js";
import { defaultName, levelLabel, levelText, exportLink, signed } from "./ui.js";

/**
 * @typedef {import("./table.js").TablePage} TablePage
 * @typedef {import("./wire").StateMsg} StateMsg
 * @typedef {import("./wire").Summary} Summary
 */

/**
 * Seats to take, the link to share, and the host's start button.
 * @param {TablePage} page
 */
export function lobbyDialog(page) {
  const st = /** @type {StateMsg} */ (page.state);
  const share = roomLink(page.code);
  const n = st.room.seats.length;
  const seats = st.room.seats.map((s, i) => {
    const mine = page.me() === i;
    // the seat's place as the table will show it to this viewer (我/下家/对家/上家; South is the
    // viewer's own seat in English); a visitor not seated yet sees the spectator's names
    const place = defaultName(i, n, page.me());
    const you = mine && !(lang() === "zh" && n === 4);  // "我" needs no "(你)"
    return h("li", { class: "lobby-seat" + (mine ? " mine" : ""), "data-seat": i },
      h("span", {}, h("span", { class: "lobby-place" }, place), ": ", h("strong", {}, s.human ? (s.name || t("player")) : t("empty_seat")), you ? ` (${t("you")})` : ""),
      !s.human ? h("button", { type: "button", "data-sit": i, onclick: () => page.send({ type: "sit", seat: i, name: savedName() || undefined }) }, t("sit_here")) : null,
      mine ? h("button", { type: "button", class: "subtle", onclick: () => page.send({ type: "stand" }) }, t("stand_up")) : null,
      st.you.host && s.human && !mine ? h("button", { type: "button", class: "small danger", "data-kick": i, onclick: () => page.send({ type: "kick", seat: i }) }, t("kick")) : null);
  });
  return h("div", { class: "lobby", id: "lobby" },
    h("h2", { id: "dialog-title" }, t("lobby_title", { code: page.code })),
    share ? h("p", {}, t("share"), " ", h("code", { id: "share-link" }, share), " ",
      h("button", { type: "button", class: "small", onclick: () => { navigator.clipboard && navigator.clipboard.writeText(share); toast(t("copied")); } }, t("copy"))) : null,
    h("p", { class: "muted" }, t("take_seat")),
    h("ul", { class: "lobby-seats" }, ...seats),
    // at the dialog's foot, in sight while the seats scroll (a phone, eight seats)
    h("div", { class: "dialog-actions" },
      st.you.host ? h("button", { type: "button", id: "btn-start", class: "primary big", onclick: () => page.send({ type: "start" }) }, t("start")) : h("p", {}, t("waiting_host"))));
}

/**
 * The finished round: points, kitty, levels before and after, the tricks the viewer's side lost.
 * @param {TablePage} page
 * @param {Summary} s
 * @param {boolean} over the match is over
 */
export function summaryDialog(page, s, over) {
  const st = /** @type {StateMsg} */ (page.state);
  const r = s.result;
  const me = page.me();
  const rows = [];
  rows.push(h("tr", {}, h("th", { scope: "row" }, t("trick_points")), h("td", {}, String(r.trick_points))));
  if (r.kitty_captured) rows.push(h("tr", {}, h("th", { scope: "row" }, t("kitty")), h("td", {}, t("kitty_captured", { p: r.kitty_points, m: r.multiplier, t: r.kitty_points * r.multiplier }))));
  else rows.push(h("tr", {}, h("th", { scope: "row" }, t("kitty")), h("td", {}, t("kitty_safe", { p: r.kitty_points }))));
  if (r.penalty_points) rows.push(h("tr", {}, h("th", { scope: "row" }, "±"), h("td", {}, String(r.penalty_points))));
  rows.push(h("tr", { class: "total" }, h("th", { scope: "row" }, t("total")), h("td", {}, h("strong", { id: "summary-total" }, String(r.attacker_points)))));
  let result = r.team === "dealer" ? t("result_dealer", { n: r.levels }) : (r.levels ? t("result_attackers", { n: r.levels }) : t("result_attackers0"));
  if (r.surrendered) result = `${t(r.surrendered === "dealer" ? "result_surrendered_dealer" : "result_surrendered_attackers")}. ${result}`;
  if (r.j_hook) result = `${result}. ${t("j_hook")}`;
  const labels = page.teamLabels();
  /** @type {(names: string[] | null, i: number) => string} */
  const lv = (names, i) => levelLabel((names || [])[i] ?? "?");
  const levelRows = labels.map((x, i) => `${x.label} ${lv(s.level_names_before, i)} → ${lv(s.level_names_after, i)}`).join(" · ");
  const review = h("section", { class: "review", id: "review" }, h("h3", {}, t("review")));
  if (!s.review.length) review.appendChild(h("p", { class: "muted" }, t("review_none")));
  for (const item of s.review) {
    review.appendChild(h("div", { class: "review-item" },
      h("div", { class: "review-head" }, item.kitty ? t("kitty") : t("trick_n", { n: item.trick }), " · ", h("strong", {}, `${item.points}`)),
      item.plays ? h("div", { class: "review-plays" }, ...item.plays.map((p) => h("span", { class: "rp" + (p.seat === item.winner ? " won" : "") }, h("span", { class: "who" }, page.name(p.seat)), cardRow(p.cards, { small: true })))) : null,
      h("p", { class: "note" }, item.note)));
  }
  const coins = coinsSection(page, s);
  const head = over ? t("match_over") : t("summary_title", { n: s.round });
  const winnerLine = over ? matchResultLine(page) : null;
  const ready = st.ready || [];
  const actions = h("div", { class: "dialog-actions" });
  if (over) {
    actions.append(...endActions(page, true));
  } else if (me !== null && st.between) {
    const done = ready.includes(me);
    actions.appendChild(h("button", { type: "button", id: "btn-next-round", class: "primary big", disabled: done, onclick: () => { page.summaryClosed = true; page.send({ type: "ready" }); } }, t("next_round")));
    if (ready.length) actions.appendChild(h("span", { class: "muted" }, t("ready_n", { n: ready.length })));
  }
  if (!over && !st.between) {  // the next round started without this player (auto-play, a timer)
    actions.appendChild(h("button", { type: "button", id: "btn-summary-close", class: "primary", onclick: () => { page.summaryClosed = true; page.renderOverlay(); } }, t("summary_close")));
  }
  return h("div", { class: "summary", id: "summary" },
    h("h2", { id: "dialog-title" }, head), winnerLine,
    h("p", { id: "summary-trump" }, `${t("trump")} ${s.trump ? suitText(s.trump) : `${t("no_trump")} `}${levelText(s.level)} · ${t("dealer")}: ${page.name(s.dealer)}`),
    // find-a-friend: who turned out to be on the dealer's side
    page.rules && page.rules.partnership === "find_friend" && r.dealer_side.length ? h("p", { id: "summary-side" }, t("dealer_side_was", { names: r.dealer_side.map((x) => page.name(x)).join(lang() === "zh" ? "、" : ", ") })) : null,
    h("table", { class: "score" }, h("tbody", {}, ...rows)),
    // the kitty's cards under the points they counted for (under the coins they read as a purse)
    h("div", { class: "kitty-end" }, h("span", {}, `${t("kitty")}: `), cardRow(r.kitty, { small: true })),
    h("p", { class: "result", id: "summary-result" }, result),
    h("p", { id: "summary-levels" }, `${t("levels")}: ${levelRows}`),
    coins,
    review, actions);
}

/**
 * Who won the match, or that it is a draw (seed 003's tie rule left no side ahead), and why it
 * ended when its clock ran out.
 * @param {TablePage} page
 */
function matchResultLine(page) {
  const st = /** @type {StateMsg} */ (page.state);
  const v = st.view;
  const me = page.me();
  let text;
  if (v.draw || v.winner === null) text = t("match_draw");
  else if (me === null) {  // a spectator: the winners by name, as the top bar names the sides (not "team 1")
    const winners = st.room.seats.map((x, i) => (x.team === v.winner ? page.name(i) : null)).filter((x) => x !== null);
    text = t("winner_team", { team: winners.join("·") });
  }
  else text = st.room.seats[me] && st.room.seats[me].team === v.winner ? t("we_win") : t("they_win");
  return h("p", { class: "winner" + (v.draw ? " draw" : ""), id: "winner" }, text,
    v.time_up ? h("span", { class: "muted", id: "time-up" }, ` ${t("time_up_over")}`) : endReason(page));
}

/**
 * Why a match that did not run out of time ended, where its rules say: the target level reached
 * first (打到6结束, seed 004) or the last of a fixed number of rounds played (seed 003).
 * @param {TablePage} page
 */
function endReason(page) {
  const v = /** @type {StateMsg} */ (page.state).view;
  const rules = page.rules || {};
  const target = rules.match_target_level;
  const ladder = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "王"];
  const reached = v.winner === null ? -1 : ladder.indexOf((v.level_names || [])[v.winner] ?? "");
  if (target && reached >= ladder.indexOf(target)) {
    return h("span", { class: "muted", id: "match-end-why" }, ` ${t("target_reached_over", { level: target })}`);
  }
  if (rules.match_end === "fixed_rounds" && rules.match_rounds) {
    return h("span", { class: "muted", id: "match-end-why" }, ` ${t("rounds_over", { n: rules.match_rounds })}`);
  }
  return null;
}

/**
 * The buttons at the end of a match: the replay (once a round was played), export, home.
 * @param {TablePage} page
 * @param {boolean} replay
 */
function endActions(page, replay) {
  return [
    replay ? h("a", { class: "button primary", href: link(`/replay/${page.code}`), onclick: follow(`/replay/${page.code}`) }, t("replay")) : null,
    exportLink(page.code),
    h("a", { class: "button" + (replay ? "" : " primary"), href: link("/"), onclick: follow("/") }, t("home")),
  ].filter((x) => x !== null);
}

/**
 * The end of a match that has no finished round to sum up (its clock ran out in the first
 * round): the result, the levels and the purses as they stand.
 * @param {TablePage} page
 */
export function matchEndDialog(page) {
  const st = /** @type {StateMsg} */ (page.state);
  const v = st.view;
  const me = page.me();
  const levels = page.teamLabels().map((x) => `${x.label} ${x.level}`).join(" · ");
  const stake = page.rules && page.rules.stake > 0;
  return h("div", { class: "summary match-end", id: "match-end" },
    h("h2", { id: "dialog-title" }, t("match_over")),
    matchResultLine(page),
    h("p", { class: "muted" }, t("match_end_no_round")),
    h("p", { id: "match-end-levels" }, `${t("match_end_levels")}: ${levels}`),
    stake ? h("table", { class: "score coins-table", id: "match-end-coins" },
      h("tbody", {}, ...v.purses.map((c, i) => h("tr", { class: i === me ? "mine" : "" }, h("th", { scope: "row" }, page.name(i)), h("td", {}, h("strong", {}, signed(c))))))) : null,
    h("div", { class: "dialog-actions" }, ...endActions(page, false)));
}

/**
 * Coins won and paid this round and each purse so far (a table with a stake only); after the
 * last round, the purses are the match's final coins.
 * @param {TablePage} page
 * @param {Summary} s
 */
function coinsSection(page, s) {
  const r = s.result;
  if (!s.stake || !r.coins) return null;
  const coins = r.coins;
  const me = page.me();
  const rules = page.rules || {};
  const notes = [t("coins_stake", { n: s.stake })];
  if (rules.override_count_multiplies_stake && r.overrides) notes.push(t("coins_doubled", { n: r.overrides, m: 2 ** r.overrides }));
  const threw = r.failed_throws.map((n, i) => (n ? i : null)).filter((i) => i !== null);
  if (rules.throw_penalty === "stake" && threw.length) {
    notes.push(t("coins_penalty", { names: threw.map((i) => page.name(i)).join("、"), c: Math.floor(s.stake / 2) }));
  }
  const rows = coins.map((c, i) => h("tr", { class: i === me ? "mine" : "" },
    h("th", { scope: "row" }, page.name(i)),
    h("td", { class: c > 0 ? "won" : c < 0 ? "lost" : "" }, signed(c)),
    h("td", {}, h("strong", {}, signed(s.purses[i] ?? 0)))));
  return h("section", { class: "coins", id: "summary-coins" },
    h("h3", {}, t("coins")),
    h("p", { class: "muted" }, notes.join(" · ")),
    h("table", { class: "score coins-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t("coins_round")), h("th", { scope: "col" }, t("coins_total")))),
      h("tbody", {}, ...rows)));
}
