// @ts-check
// The tuolaji web client's entry module: the router. Plain ES modules, no build step.
// The server decides everything; the pages show the state they are sent and send the player's choices.
//   dom.js h()/swap() · api.js HTTP + token · transport.js WebSocket or postMessage · nav.js go()
//   start.js + rules_panel.js start page · table.js + hand.js + summary.js + log.js the table
//   replay.js replays · ui.js shared texts · i18n.js + cards.js languages and card faces
//   wire.d.ts the server's messages (generated from src/tuolaji/server/wire.py)
import { lang, setLang } from "./i18n.js";
import { setRouter, path } from "./nav.js";
import { StartPage, quickPlay } from "./start.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";

const app = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @type {{ destroy(): void } | null} the page shown now */
let page = null;

/** Draw the page for the address: /, /play, /r/CODE (a table) or /replay/CODE. */
function route() {
  if (page) page.destroy();
  page = null;
  app.innerHTML = "";
  const route = path();
  if (route === "/play") { quickPlay(app); return; }
  const m = route.match(/^\/(r|replay)\/([A-Za-z0-9]+)\/?$/);
  if (m && m[1] === "r") page = new TablePage(m[2].toUpperCase(), { container: app });
  else if (m) page = new ReplayPage(m[2].toUpperCase(), app);
  else page = new StartPage(app);
}

setRouter(route);
window.addEventListener("popstate", route);
setLang(lang());
route();
