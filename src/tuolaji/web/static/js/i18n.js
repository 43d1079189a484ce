// @ts-check
// Chinese and English texts. Chinese is the default when the browser prefers it.
import { CATALOG } from "./messages.js";
// The texts live in the message catalogs shared with the server (src/tuolaji/messages/*.json).
const STRINGS = { en: CATALOG.en.ui, zh: CATALOG.zh.ui };

export function preferredLang() {
  const saved = localStorage.getItem("tuolaji.lang");
  if (saved === "zh" || saved === "en") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return String(langs[0] || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

let current = preferredLang();

export function lang() { return current; }

export function setLang(l) {
  current = l === "zh" ? "zh" : "en";
  localStorage.setItem("tuolaji.lang", current);
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  const skip = document.querySelector("a.skip");  // index.html's keyboard link, written in English
  if (skip) skip.textContent = t("skip_to_game");
}

export function t(key, vars = {}) {
  const table = STRINGS[current] || STRINGS.en;
  // exactly one: the catalog's KEY_one where it has one ("1 card", not "1 card(s)")
  if (vars.n === 1 && `${key}_one` in table) key = `${key}_one`;
  let s = table[key] ?? STRINGS.en[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}
