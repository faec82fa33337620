// The deal's log beside the hand (role="log", newest last, kept scrolled to its end): one
// line a public move. The latest line also goes to the message bar unless `quiet`.
import { GLYPH, isJoker } from "../cards.js";
import { showInfo } from "../errors.js";
import { format, gettext } from "../i18n.js";
import { cloneView, describeEvent, eventData, eventType, pileStep } from "../controllers/animator.js";

const LOG_LINES = 400; // a long deal has some 150 moves

export class DealLog {
  constructor({ box, lines, message }) {
    this.box = box;
    this.lines = lines;
    this.message = message;
    this.lastMoves = new Map(); // seat -> its last move this deal, in short (views/seats.js)
    this.scrolling = 0; // the frame that will scroll the box to its end
    new ResizeObserver(() => { box.scrollTop = box.scrollHeight; }).observe(box);
  }

  // To the end, once in the frame to come, before it is painted: reading the box's height
  // lays the page out, and a log written again line by line (a read of the game, a step of
  // the replay) laid it out once a line.
  scrollToEnd() {
    this.scrolling ||= requestAnimationFrame(() => {
      this.scrolling = 0;
      this.box.scrollTop = this.box.scrollHeight;
    });
  }

  write(line, { mine = false, deal = false, quiet = false } = {}) {
    const li = document.createElement("li");
    li.textContent = line;
    if (mine) li.classList.add("mine");
    if (deal) li.classList.add("deal");
    if (!quiet) li.classList.add("news");
    this.lines.append(li);
    while (this.lines.children.length > LOG_LINES) this.lines.firstChild.remove();
    this.scrollToEnd();
    if (!quiet) showInfo(this.message, line);
  }

  // The line of one event, seen on `shown` (the view as it is after the event).
  writeEvent(shown, event, { quiet = false } = {}) {
    const line = describeEvent(shown, event);
    const d = eventData(event);
    if (eventType(event) === "deal_started") this.lastMoves.clear();
    const move = shortMove(event);
    if (move && d.seat !== undefined) this.lastMoves.set(d.seat, move);
    if (line) this.write(line, { mine: d.seat === shown.you, deal: d.seat === undefined, quiet });
  }

  // The log written again from the server's events (from the deal's start), without
  // animation. Returns the discard pile's cards beneath its top, which the events tell.
  rebuild(before, events) {
    this.lines.replaceChildren();
    this.lastMoves.clear();
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

// A move in a few words, for a seat on a narrow screen ("discarded J♣"): each seat shows its
// last, so a whole round of the computer players' moves is seen at once.
function shortMove(event) {
  const d = eventData(event);
  const card = d.card ? (isJoker(d.card) ? "★" : `${d.card.rank}${GLYPH[d.card.suit]}`) : "";
  switch (eventType(event)) {
    case "drew":
      return d.from === "discard" ? format(gettext("took %(card)s"), { card }) : gettext("drew from the stock");
    case "laid_down":
      return gettext("laid down");
    case "laid_off":
      return format(gettext("laid off %(card)s"), { card });
    case "discarded":
      return format(gettext("discarded %(card)s"), { card });
    default:
      return "";
  }
}
