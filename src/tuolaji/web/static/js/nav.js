// @ts-check
// Navigation inside the single page: go() changes the address and lets the router draw the page.
// Addresses are paths (/r/CODE) on the server; the offline build, served as static files from any
// folder of any host, keeps them in the fragment (#/r/CODE) after useHashRoutes().

/** @type {() => void} */
let router = () => {};
let hashRoutes = false;

/** @param {() => void} fn the function that draws the page for the current path() */
export function setRouter(fn) { router = fn; }

/** The offline build: routes live in the fragment; there is no server to share a room on. */
export function useHashRoutes() { hashRoutes = true; }

/** The page's route: "/", "/play", "/r/CODE" or "/replay/CODE". */
export function path() {
  if (!hashRoutes) return location.pathname;
  return location.hash.startsWith("#/") ? location.hash.slice(1) : "/";
}

/**
 * The address of a route, for href attributes and the history.
 * @param {string} route
 */
export function link(route) { return hashRoutes ? `#${route}` : route; }

/**
 * The address friends open to join a room, or null where there is none (the offline build).
 * @param {string} code
 */
export function roomLink(code) { return hashRoutes ? null : `${location.origin}/r/${code}`; }

/** @param {string} route */
export function go(route) {
  history.pushState({}, "", link(route));
  router();
  window.scrollTo(0, 0);  // a new page opens at its top, as a link's would (the start page may have been scrolled)
}

/** @param {string} route */
export function replace(route) { history.replaceState({}, "", link(route)); }

/** @param {string} route */
export function redraw(route) { replace(route); router(); }

/**
 * A link that navigates inside the page (a plain link for a new tab).
 * @param {string} route
 * @returns {(e: Event) => void}
 */
export function follow(route) { return (e) => { e.preventDefault(); go(route); }; }
