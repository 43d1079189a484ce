// Generated from src/tuolaji/server/wire.py by `python -m tuolaji.server.wire_ts`. Do not edit.
// The messages the server sends. JSDoc uses them as: /** @typedef {import('./wire').StateMsg} StateMsg */


/** The whole table as one connection may see it; sent after every change (coalesced). */
export interface StateMsg {
  type: "state";
  room: RoomInfo;
  you: You;
  view: TableView;
  between: boolean;
  thinking: boolean;
  re?: ReqId[];
  waiting_for: number | null;
  timer_ms: number | null;
  clock_ms?: number;
  options?: Options;
  summary?: Summary | null;
  ready?: number[];
  events_skipped?: number;
  events: WireEvent[];
}

export interface WelcomeMsg {
  type: "welcome";
  code: string;
  seat: number | null;
  token: string | null;
  lang: string;
  players: number;
  rules: Record<string, unknown>;
}

/** A message was refused; nothing changed. */
export interface RefusedMsg {
  type: "refused";
  code: string;
  reason: string;
  why: string;
  re?: ReqId;
  action?: string;
}

/** The answer to ``check``: would this selection be legal? */
export interface CheckedMsg {
  type: "checked";
  re: number | string | null;
  ok: boolean;
  code?: string;
  reason?: string;
  why?: string;
  throw?: boolean;
}

export interface HintMsg {
  type: "hint";
  re: number | string | null;
  action: HintAction;
}

export interface PongMsg {
  type: "pong";
  re: number | string | null;
}

export interface SeatedMsg {
  type: "seated";
  seat: number;
  re: number | string | null;
}

export interface ClosedMsg {
  type: "closed";
  reason: string;
}

export interface InfoResponse {
  version: string;
  mode: string;
  lan: boolean;
  lan_urls: string[];
  lan_how: string | null;
  presets: string[];
  difficulties: string[];
  speeds: string[];
  lang: string;
}

export interface RulesSchema {
  fields: RuleField[];
  presets: Record<string, Record<string, unknown>>;
  labels: RuleLabels;
}

export interface GamesResponse {
  games: GameEntry[];
}

export interface CreatedResponse {
  code: string;
  token: string | null;
  seat: number | null;
  url: string;
}

export interface ImportedResponse {
  code: string;
  over: boolean;
  rounds: number;
}

/** The room's info (as ``RoomInfo``) with its full rule settings, for the replay page. */
export interface GameInfoResponse {
  code: string;
  status: "lobby" | "playing" | "finished";
  host: boolean;
  seats: SeatInfo[];
  spectators: number;
  settings: RoomSettings;
  counter: boolean;
  password: boolean;
  rules: Record<string, unknown>;
  summary: PublicSummary;
  rounds: number;
  over: boolean;
}

export interface ReplayResponse {
  round: number;
  seat: number | null;
  rounds: number;
  frames: ReplayFrame[];
  players: number;
  levels: number[];
  level_names: string[];
  names?: string[];
  summary?: PublicSummary;
}

export interface RulesCheckResponse {
  ok: boolean;
  error?: string;
  deal?: DealShape;
}

export interface ApiError {
  error: string;
  code: string;
}

export interface RoomInfo {
  code: string;
  status: "lobby" | "playing" | "finished";
  host: boolean;
  seats: SeatInfo[];
  spectators: number;
  settings: RoomSettings;
  counter: boolean;
  password: boolean;
  rules: string;
}

export interface You {
  seat: number | null;
  host: boolean;
  lang: string;
  autoplay: boolean;
  from_round?: number;
}

/** The view in a ``state`` message: the match view with the table's names for it. */
export interface TableView {
  seat: number | null;
  phase: "deal" | "declare" | "bury" | "call_friend" | "play" | "surrender" | "done" | "override";
  turn: number | null;
  level: number;
  dealer: number | null;
  trump: "S" | "H" | "C" | "D" | null;
  trump_fixed: boolean;
  bid: Bid | null;
  overrides: number;
  friend_card: string | null;
  friend_calls: FriendCallView[];
  friends: number;
  dealer_side: number[];
  seat_points: number[];
  hand: string[];
  hand_sizes: number[];
  dealt: number;
  kitty_size: number;
  kitty: string[] | null;
  trick: TrickView | null;
  last_trick: LastTrickView | null;
  tricks_played: number;
  attacker_points: number;
  result: RoundResult | null;
  redeal: boolean;
  surrender: SurrenderView | null;
  levels: number[];
  round_number: number;
  winner: number | null;
  over: boolean;
  draw: boolean;
  time_up: boolean;
  purses: number[];
  level_names: string[];
  sides: ("dealer" | "attacker" | null)[];
}

/** What the receiving seat may do now; only the keys of the current phase are present. */
export interface Options {
  phase: "deal" | "declare" | "bury" | "call_friend" | "play" | "surrender" | "done" | "override";
  turn: boolean;
  eff: number[];
  declare?: string[][];
  can_pass?: boolean;
  can_redeal?: boolean;
  bury?: number;
  from_kitty?: string[];
  call_friend?: boolean;
  friend_copies?: number;
  can_surrender?: boolean;
  answer_surrender?: number;
  follow?: Follow;
  playable?: boolean[];
  required?: boolean[];
  lead?: boolean;
}

/** The last finished round, public, with the coach's review for the receiver's side. */
export interface Summary {
  round: number;
  level: number;
  dealer: number | null;
  trump: "S" | "H" | "C" | "D" | null;
  result: RoundResult;
  sides: ("dealer" | "attacker")[];
  levels_before: number[] | null;
  levels_after: number[];
  level_names_before: string[] | null;
  level_names_after: string[];
  points_total: number;
  last_trick: WonTrick | null;
  review: ReviewItem[];
  winner: number | null;
  stake: number;
  purses: number[];
}

export interface HintAction {
  type: "declare" | "pass" | "bury" | "play" | "call_friend" | "redeal" | "surrender" | "surrender_answer";
  cards?: string[];
  card?: string;
  nth?: number;
  accept?: boolean;
}

export interface RuleField {
  name: string;
  default: unknown;
  kind: "enum" | "bool" | "int" | "list" | "text";
  options?: string[];
  optional?: boolean;
  offered?: boolean;
  hidden_options?: string[];
}

export interface RuleLabels {
  settings: Record<string, Both>;
  options: Record<string, Both>;
  presets: Record<string, PresetText>;
}

export interface GameEntry {
  code: string;
  created: number;
  updated: number;
  status: "lobby" | "playing" | "finished";
  seats: GameSeat[];
  summary: PublicSummary;
  mine: number | null;
}

export interface SeatInfo {
  name: string;
  human: boolean;
  connected: boolean;
  autoplay: boolean;
  bot: boolean;
  team: number;
}

export interface RoomSettings {
  speed: string | null;
  timer: number | null;
  difficulty: string | null;
}

export interface PublicSummary {
  levels: number[];
  level_names: string[];
  round: number;
  winner: number | null;
  rules: string;
  names: string[];
  players: number;
  teams: number[];
}

export interface ReplayFrame {
  label: ReplayLabel;
  view: RoundView;
}

/** ``server.api.deal_shape``: what the checked rules deal. */
export interface DealShape {
  players: number;
  decks: number;
  hand: number;
  kitty: number;
  friends: number;
}

export interface Bid {
  seat: number;
  cards: string[];
}

export interface FriendCallView {
  card: string;
  nth: number;
  shown: boolean;
  seat: number | null;
}

export interface TrickView {
  leader: number;
  plays: SeatPlay[];
  attempted: string[] | null;
}

export interface LastTrickView {
  leader: number;
  plays: SeatPlay[];
  winner: number;
  points: number;
}

/** A finished round's ``round_ended`` event (also a view's ``result``). */
export interface RoundResult {
  e: "round_ended";
  attacker_points: number;
  trick_points: number;
  kitty: string[];
  kitty_points: number;
  multiplier: number;
  kitty_captured: boolean;
  team: "dealer" | "attackers";
  levels: number;
  next_dealer: number;
  dealer_side: number[];
  overrides: number;
  failed_throws: number[];
  penalty_points: number;
  coins?: number[];
  j_hook?: boolean;
  surrendered?: "dealer" | "attackers";
}

export interface SurrenderView {
  by: number;
  waiting: number[];
}

export interface Follow {
  count: number;
  suit: "S" | "H" | "C" | "D" | "T";
}

export interface WonTrick {
  plays: SeatPlay[];
  winner: number;
  points: number;
}

export interface ReviewItem {
  trick: number;
  points: number;
  note: string;
  kitty?: boolean;
  leader?: number;
  winner?: number;
  given?: number;
  plays?: SeatPlay[];
}

export interface Both {
  en: string;
  zh: string;
}

export interface PresetText {
  title: Both;
  description: Both;
}

export interface GameSeat {
  name: string | null;
  human: boolean;
}

export interface ReplayLabel {
  e: string;
  seat?: number | null;
  cards?: string[];
  attempted?: string[] | null;
  trick?: number;
}

/** ``engine.view.round_view``: the round as one seat may see it (None: a spectator). */
export interface RoundView {
  seat: number | null;
  phase: "deal" | "declare" | "bury" | "call_friend" | "play" | "surrender" | "done" | "override";
  turn: number | null;
  level: number;
  dealer: number | null;
  trump: "S" | "H" | "C" | "D" | null;
  trump_fixed: boolean;
  bid: Bid | null;
  overrides: number;
  friend_card: string | null;
  friend_calls: FriendCallView[];
  friends: number;
  dealer_side: number[];
  seat_points: number[];
  hand: string[];
  hand_sizes: number[];
  dealt: number;
  kitty_size: number;
  kitty: string[] | null;
  trick: TrickView | null;
  last_trick: LastTrickView | null;
  tricks_played: number;
  attacker_points: number;
  result: RoundResult | null;
  redeal: boolean;
  surrender: SurrenderView | null;
}

export interface SeatPlay {
  seat: number;
  cards: string[];
}

export type ServerMessage = StateMsg | WelcomeMsg | RefusedMsg | CheckedMsg | HintMsg | PongMsg | SeatedMsg | ClosedMsg | ChatMsg | NoticeMsg;

export type WireEvent = EvRoundStarted | EvDealt | EvDeclared | EvPassed | EvTrumpFixed | EvRedealt | EvKittyTaken | EvBuried | EvPlayed | EvRedealRequested | EvFriendCalled | EvFriendRevealed | EvTimeIsUp | EvTrickEnded | RoundResult | EvMatchEnded | EvSurrenderProposed | EvSurrenderAnswered;

export type ReqId = number | string;

export interface ChatMsg {
  type: "chat";
  lines: ChatLine[];
}

/** Something every player of the room should know: ``save_failed`` (the game cannot be saved now), ``saved_again``. */
export interface NoticeMsg {
  type: "notice";
  code: string;
  reason: string;
}

export interface EvRoundStarted {
  e: "round_started";
  number: number;
  level: number;
  dealer: number | null;
  levels: number[];
}

export interface EvDealt {
  e: "dealt";
  seat: number;
  card: string | null;
}

export interface EvDeclared {
  e: "declared";
  seat: number;
  cards: string[];
  trump: "S" | "H" | "C" | "D" | null;
}

export interface EvPassed {
  e: "passed";
  seat: number;
}

export interface EvTrumpFixed {
  e: "trump_fixed";
  trump: "S" | "H" | "C" | "D" | null;
  dealer: number;
  source: string;
}

export interface EvRedealt {
  e: "redealt";
}

export interface EvKittyTaken {
  e: "kitty_taken";
  seat: number;
  cards: string[] | null;
}

export interface EvBuried {
  e: "buried";
  seat: number;
  cards: string[] | null;
}

export interface EvPlayed {
  e: "played";
  seat: number;
  cards: string[];
  attempted: string[] | null;
  beaten_by?: number;
  beating?: string[];
}

export interface EvRedealRequested {
  e: "redeal_requested";
  seat: number;
}

export interface EvFriendCalled {
  e: "friend_called";
  seat: number;
  card: string;
  nth?: number;
}

export interface EvFriendRevealed {
  e: "friend_revealed";
  seat: number | null;
  call?: number;
}

export interface EvTimeIsUp {
  e: "time_is_up";
}

export interface EvTrickEnded {
  e: "trick_ended";
  winner: number;
  points: number;
  attacker_points: number;
}

export interface EvMatchEnded {
  e: "match_ended";
  winner: number | null;
  levels: number[];
}

export interface EvSurrenderProposed {
  e: "surrender_proposed";
  seat: number;
}

export interface EvSurrenderAnswered {
  e: "surrender_answered";
  seat: number;
  accept: boolean;
}

export interface ChatLine {
  seat: number | null;
  name: string;
  text: string;
}
