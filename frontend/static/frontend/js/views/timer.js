// A table's turn timer and who is away, drawn from the store (controllers/store.js): the
// countdown by the seat to move (another seat's box, or this player's own head), and, when
// this player's seat is away, the bar that says so with "I'm back". Both float over the
// table (table.css), so they come and go without moving anything under a finger.
import { format, gettext } from "../i18n.js";

const HURRY_S = 10; // the countdown's last seconds stand out

// The countdown's text and where it stands; called on each render and each tick.
export function renderTurnClock(els, store) {
  const left = store.secondsLeft();
  const v = store.shown;
  const clock = els.clock;
  if (left === null || !v || v.phase === "finished") {
    clock.hidden = true;
    return;
  }
  const seat = store.timer.seat;
  // Only once the screen shows that turn (the moves before it may still be playing).
  if (v.turn !== seat) { clock.hidden = true; return; }
  const anchor = seat === v.you ? els.me : els.seats.querySelector(`.seat[data-seat="${seat}"]`);
  if (!anchor) { clock.hidden = true; return; }
  if (clock.parentElement !== anchor) anchor.append(clock);
  clock.hidden = false;
  clock.classList.toggle("hurry", left <= HURRY_S);
  clock.classList.toggle("mine", seat === v.you);
  clock.querySelector("[data-clock-time]").textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
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
