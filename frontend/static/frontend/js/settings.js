// The player's table settings, kept in this browser: animation speed, four-colour deck, sound,
// whether a joker thrown away by a double tap or D is asked about first; and the system's
// reduced-motion setting, which the pages read here.
const KEY = "ladder.settings";
const DEFAULTS = { speed: "normal", fourColour: false, sound: false, askJoker: true };
export const SPEED_MS = { slow: 1100, normal: 600, fast: 250, instant: 0 };
// Reduced motion: no flights, and scrolls that jump rather than glide.
const REDUCED_MOTION = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");

export function reducedMotion() {
  return Boolean(REDUCED_MOTION?.matches);
}

export function scrollBehavior() {
  return reducedMotion() ? "auto" : "smooth";
}

export function loadSettings() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") }; }
  catch { return { ...DEFAULTS }; }
}

export function saveSettings(settings) {
  try { localStorage.setItem(KEY, JSON.stringify(settings)); } catch { /* private mode */ }
  applySettings(settings);
}

export function applySettings(settings) {
  document.documentElement.classList.toggle("four-colour", Boolean(settings.fourColour));
}

let audio = null;
// A short soft click for a card moving, only when the player turned sound on.
export function playCardSound(settings) {
  if (!settings.sound) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = "triangle";
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.08);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.09);
  } catch { /* no audio here */ }
}
