// @ts-check
// Navigation inside the single page: go() changes the address and lets the router draw the page.

/** @type {() => void} */
let router = () => {};

/** @param {() => void} fn the function that draws the page for location.pathname */
export function setRouter(fn) { router = fn; }

/** @param {string} path */
export function go(path) {
  history.pushState({}, "", path);
  router();
}

/** @param {string} path */
export function replace(path) { history.replaceState({}, "", path); }

/** @param {string} path */
export function redraw(path) { replace(path); router(); }

/**
 * A link that navigates inside the page (a plain link for a new tab).
 * @param {string} path
 * @returns {(e: Event) => void}
 */
export function follow(path) { return (e) => { e.preventDefault(); go(path); }; }
