// A table's turn timer and who is away, drawn from the store (controllers/store.js): the
// countdown by the seat to move (another seat's box, or this player's own head), and, when
// this player's seat is away, the bar that says so with "I'm back". Both float over the
// table (table.css), so they come and go without moving anything under a finger.
import { format, gettext } from "../i18n.js";

const HURRY_S = 10; // the countdown's last seconds stand out

// The countdown's text and where it stands; called on each render and each tick. A tick
// changes the page only when what it shows changes: written ten times a second, the same
// text had the page laid out and painted anew ten times a second.
export function renderTurnClock(els, store) {
  const left = store.secondsLeft();
  const v = store.shown;
  const clock = els.clock;
  const seat = store.timer?.seat;
  // Only once the screen shows that turn (the moves before it may still be playing).
  const anchor = left === null || !v || v.phase === "finished" || v.turn !== seat ? null
    : seat === v.you ? els.me : els.seats.querySelector(`.seat[data-seat="${seat}"]`);
  if (clock.hidden !== !anchor) clock.hidden = !anchor;
  if (!anchor) return;
  if (clock.parentElement !== anchor) anchor.append(clock);
  clock.classList.toggle("hurry", left <= HURRY_S);
  clock.classList.toggle("mine", seat === v.you);
  const time = clock.querySelector("[data-clock-time]");
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (time.textContent === text) return;
  time.textContent = text;
  clock.setAttribute("aria-label", format(gettext("Time left for this turn: %(n)s s"), { n: left }));
}

// A paused table (every person away: the server stopped the clock) says so in the same bar,
// which every one of them sees.
export function renderAway(els, store) {
  els.away.hidden = !store.awayMe;
  const paused = store.paused;
  els.away.querySelector("[data-away-note]").hidden = paused;
  els.away.querySelector("[data-paused-note]").hidden = !paused;
}
