// The deal's log beside the hand (role="log", newest last, kept scrolled to its end): one
// line a public move. The latest line also goes to the message bar unless `quiet`.
import { showInfo } from "../errors.js";
import { cloneView, describeEvent, eventData, eventType, pileStep } from "../controllers/animator.js";

const LOG_LINES = 400; // a long deal has some 150 moves

export class DealLog {
  constructor({ box, lines, message }) {
    this.box = box;
    this.lines = lines;
    this.message = message;
    new ResizeObserver(() => { box.scrollTop = box.scrollHeight; }).observe(box);
  }

  write(line, { mine = false, deal = false, quiet = false } = {}) {
    const li = document.createElement("li");
    li.textContent = line;
    if (mine) li.classList.add("mine");
    if (deal) li.classList.add("deal");
    if (!quiet) li.classList.add("news");
    this.lines.append(li);
    while (this.lines.children.length > LOG_LINES) this.lines.firstChild.remove();
    this.box.scrollTop = this.box.scrollHeight;
    if (!quiet) showInfo(this.message, line);
  }

  // The line of one event, seen on `shown` (the view as it is after the event).
  writeEvent(shown, event, { quiet = false } = {}) {
    const line = describeEvent(shown, event);
    const d = eventData(event);
    if (line) this.write(line, { mine: d.seat === shown.you, deal: d.seat === undefined, quiet });
  }

  // The log written again from the server's events (from the deal's start), without
  // animation. Returns the discard pile's cards beneath its top, which the events tell.
  rebuild(before, events) {
    this.lines.replaceChildren();
    const shown = cloneView(before);
    shown.pile_below = [];
    for (const event of events) {
      if (eventType(event) === "deal_started") { this.lines.replaceChildren(); shown.pile_below = []; }
      pileStep(shown, event);
      this.writeEvent(shown, event, { quiet: true });
    }
    return shown.pile_below;
  }
}
