// Shows a run of events one by one on a copy of the view they start from: the computer
// players' turns at the chosen speed (cards flying, seats lit, skippable), the deal summary
// between deals, a rung climbed. Events the player has already watched (up to
// `quietThrough`) pass at once, without pause, sound or dialog.
import { gettext } from "../i18n.js";
import { SPEED_MS, playCardSound, reducedMotion } from "../settings.js";
import { applyEvent, cloneView, eventData, eventType } from "./animator.js";
import { showDealSummary } from "./dialogs.js";
import { FLIGHT_SHARE, flightsWanted, landFlight, startFlight } from "./flight.js";

export class Playback {
  constructor(table) {
    this.table = table; // the GameController: its elements, settings, log and render()
    this.skipping = false; // the player skipped the rest of the computer players' moves
    this.wake = null; // ends the current pause early
    this.timers = new Set();
  }

  // Plays `events` from `before`; `table.store.shown` is the copy on screen meanwhile.
  async play(before, events, { quietThrough = -1, pileBelow = [] } = {}) {
    const table = this.table, els = table.els;
    const delay = SPEED_MS[table.settings.speed] ?? SPEED_MS.normal;
    const shown = cloneView(before);
    shown.pile_below = [...pileBelow];
    table.store.shown = shown;
    this.skipping = false;
    const watched = (e) => e.v <= quietThrough;
    const botMoves = events.some((e) => { const s = eventData(e).seat; return s !== undefined && s !== before.you && !watched(e); });
    els.playback.hidden = !(botMoves && delay);
    for (const event of events) {
      const type = eventType(event), d = eventData(event);
      const quiet = watched(event);
      applyEvent(shown, event);
      table.log.writeEvent(shown, event, { quiet });
      if (type === "drew" && d.seat === shown.you && d.card) table.store.fresh = new Set([d.card.id]);
      if (type === "deal_started") table.dealStarted(d.hand);
      if (quiet) continue;
      if (type === "laid_down" && d.seat === shown.you) this.celebrate(gettext("Contract laid down: a rung climbed!"));
      const botStep = d.seat !== undefined && d.seat !== shown.you;
      const wait = this.skipping ? 0 : delay;
      const from = botStep && flightsWanted(wait) ? startFlight(els, type, d) : null;
      if (botStep || type === "deal_ended" || type === "laid_down") {
        table.render();
        this.highlightSeat(d.seat);
        if (from) landFlight(els, type, d, from, Math.round(wait * FLIGHT_SHARE));
        if (botStep && wait) { playCardSound(table.settings); await this.pause(wait); }
      }
      if (type === "deal_ended") await showDealSummary(els, shown, d);
      table.store.markShown(event.v);
    }
    els.playback.hidden = true;
    return shown.pile_below;
  }

  // A pause between the computer players' moves, cut short by skip().
  pause(ms) {
    return new Promise((resolve) => {
      const done = () => { clearTimeout(timer); this.timers.delete(timer); this.wake = null; resolve(); };
      const timer = setTimeout(done, ms);
      this.timers.add(timer);
      this.wake = done;
    });
  }

  // Skip (button or Escape): the rest of the computer players' moves show at once.
  skip() {
    if (!this.table.store.busy) return false;
    this.skipping = true;
    this.wake?.();
    return true;
  }

  stop() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    document.querySelector(".celebration")?.remove();
  }

  // A short, skippable moment (none when the system asks for reduced motion); it takes no
  // clicks, so play goes on under it.
  celebrate(text) {
    if (reducedMotion()) return Promise.resolve();
    document.querySelector(".celebration")?.remove();
    const box = document.createElement("div");
    box.className = "celebration";
    box.setAttribute("aria-hidden", "true"); // the log and the message say it in words
    const p = document.createElement("p");
    p.textContent = text;
    box.append(p);
    for (let i = 0; i < 14; i++) {
      const bit = document.createElement("i");
      const angle = (i / 14) * 2 * Math.PI;
      bit.style.setProperty("--dx", `${Math.round(Math.cos(angle) * 220)}px`);
      bit.style.setProperty("--dy", `${Math.round(Math.sin(angle) * 160)}px`);
      bit.style.background = ["#ffd166", "#8fe3a8", "#7fd3ff", "#ffb4a8"][i % 4];
      box.append(bit);
    }
    document.body.append(box);
    return new Promise((resolve) => {
      const end = () => {
        box.remove();
        document.removeEventListener("pointerdown", end, true);
        document.removeEventListener("keydown", end, true);
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve();
      };
      document.addEventListener("pointerdown", end, true);
      document.addEventListener("keydown", end, true);
      const timer = setTimeout(end, 1600);
      this.timers.add(timer);
    });
  }

  highlightSeat(seat) {
    for (const el of this.table.els.seats.querySelectorAll(".seat")) {
      el.classList.toggle("acting", Number(el.dataset.seat) === seat);
    }
  }
}
