// @ts-check
// Animation and sound: cards fly from the deck when dealt and from their player when played, and
// the finished trick is swept to its winner (the Web Animations API); short tones for your turn,
// trump declared, a ruff, a failed throw, and a round won or lost (Web Audio, no sound files).
// Both are settings kept in local storage; when the system asks for reduced motion nothing moves,
// whatever the setting, and sound starts off.

const KEYS = { motion: "tuolaji.fx.motion", sound: "tuolaji.fx.sound" };

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {"motion" | "sound"} which @returns {boolean} the player's setting */
export function fxOn(which) {
  const saved = localStorage.getItem(KEYS[which]);
  if (saved === "on" || saved === "off") return saved === "on";
  return !reducedMotion();
}

/** Whether cards move: the player's setting, and never under the system's reduced motion. */
export function motionOn() { return fxOn("motion") && !reducedMotion(); }

/** @param {"motion" | "sound"} which @param {boolean} on */
export function setFx(which, on) {
  localStorage.setItem(KEYS[which], on ? "on" : "off");
  applyMotion();
}

/** Mark the page so the CSS transitions run only when motion is on. */
export function applyMotion() {
  document.documentElement.classList.toggle("fx-motion", motionOn());
}

/** @param {DOMRect} r */
const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];

/**
 * Fly an element in from another place (the deck, a player's seat) to where it stands.
 * @param {Element} el
 * @param {DOMRect} from
 * @param {string} id the animation's name ("deal", "play")
 * @param {number} [duration] ms
 */
export function flyIn(el, from, id, duration = 240) {
  if (!motionOn() || typeof el.animate !== "function") return;
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(el.getBoundingClientRect());
  const anim = el.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px) scale(0.6)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
    { duration, easing: "ease-out" });
  anim.id = id;
}

/**
 * Sweep an element to a place (the trick's winner) and leave it gone; ``elapsed`` ms of the sweep
 * have passed already (a redrawn trick continues where it was).
 * @param {Element} el
 * @param {DOMRect} to
 * @param {number} elapsed
 */
export function sweepTo(el, to, elapsed) {
  if (!motionOn() || typeof el.animate !== "function") return;
  const [fx, fy] = centre(el.getBoundingClientRect());
  const [tx, ty] = centre(to);
  const anim = el.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${tx - fx}px, ${ty - fy}px) scale(0.4)`, opacity: 0 }],
    { duration: 380, delay: 500, easing: "ease-in", fill: "forwards" });
  anim.id = "sweep";
  anim.currentTime = elapsed;
}

/**
 * A card back flying from the deck to a seat (another player's card dealt), drawn over the page.
 * @param {DOMRect} from
 * @param {DOMRect} to
 */
export function dealTo(from, to) {
  if (!motionOn()) return;
  const el = document.createElement("span");
  el.className = "flying-back";
  el.setAttribute("aria-hidden", "true");
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  el.style.left = `${fx}px`;
  el.style.top = `${fy}px`;
  document.body.appendChild(el);
  if (typeof el.animate !== "function") { el.remove(); return; }
  const anim = el.animate([{ transform: "translate(-50%, -50%)", opacity: 1 }, { transform: `translate(calc(${tx - fx}px - 50%), calc(${ty - fy}px - 50%)) scale(0.7)`, opacity: 0.2 }],
    { duration: 240, easing: "ease-out" });
  anim.id = "deal";
  anim.onfinish = () => el.remove();
  anim.oncancel = () => el.remove();
}

/** @type {AudioContext | null} */
let audio = null;

/** @typedef {"turn" | "trump" | "ruff" | "failed_throw" | "won" | "lost"} Cue */

/** @type {Record<Cue, [number, number][]>} each cue: [frequency in Hz, duration in s] notes */
const CUES = {
  turn: [[880, 0.08], [1175, 0.1]],
  trump: [[523, 0.09], [659, 0.09], [784, 0.14]],
  ruff: [[196, 0.14]],
  failed_throw: [[440, 0.1], [349, 0.1], [262, 0.18]],
  won: [[523, 0.1], [659, 0.1], [784, 0.1], [1047, 0.22]],
  lost: [[392, 0.14], [330, 0.14], [262, 0.26]],
};

/** @param {Cue} cue */
export function play(cue) {
  if (!fxOn("sound")) return;
  try {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const ctx = /** @type {AudioContext} */ (audio);
    let at = ctx.currentTime + 0.01;
    for (const [freq, dur] of CUES[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      osc.type = "triangle";
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + dur + 0.02);
      at += dur;
    }
  } catch (_e) {
    // a browser without sound (or one that blocks it before a click) plays silently
  }
}
