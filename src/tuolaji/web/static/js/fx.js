// @ts-check
// Animation and sound: cards slide in when dealt and played and the finished trick sweeps to its
// winner (CSS, style.css under .fx-motion); short tones for your turn, trump declared, a ruff, a
// failed throw, and a round won or lost (Web Audio, no sound files). Both are settings kept in
// local storage; both start off when the system asks for reduced motion.

const KEYS = { motion: "tuolaji.fx.motion", sound: "tuolaji.fx.sound" };

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {"motion" | "sound"} which @returns {boolean} */
export function fxOn(which) {
  const saved = localStorage.getItem(KEYS[which]);
  if (saved === "on" || saved === "off") return saved === "on";
  return !reducedMotion();
}

/** @param {"motion" | "sound"} which @param {boolean} on */
export function setFx(which, on) {
  localStorage.setItem(KEYS[which], on ? "on" : "off");
  applyMotion();
}

/** Mark the page so the CSS animations run only when motion is on. */
export function applyMotion() {
  document.documentElement.classList.toggle("fx-motion", fxOn("motion"));
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
