// Your hand, large: one option per card in your own order, selection and legality marked.
// The cards spread over the row (overlapping only when they must); when overlapping would
// leave less than MIN_STEP of a card to see and tap, the hand takes a second row.
import { cardName } from "../cards.js";
import { gettext } from "../i18n.js";
import { cardElement } from "./card.js";

const GAP_PX = 6;
const COARSE = globalThis.matchMedia?.("(pointer: coarse)");
const minStep = () => (COARSE?.matches || globalThis.innerWidth < 600 ? 44 : 40); // 44: a tap target

export function renderHand(root, cards, { selected, focusId, fresh, discardable, inComposer, hinted, phase }) {
  const frag = document.createDocumentFragment();
  cards.forEach((card, index) => {
    const el = cardElement(card, { role: "option" });
    el.classList.add("in-hand");
    el.tabIndex = card.id === focusId || (!focusId && index === 0) ? 0 : -1;
    const isSelected = selected.has(card.id);
    el.setAttribute("aria-selected", String(isSelected));
    if (isSelected) el.classList.add("selected");
    if (fresh.has(card.id)) el.classList.add("fresh");
    if (inComposer.has(card.id)) el.classList.add("composed");
    if (hinted?.has(card.id)) el.classList.add("hinted");
    const notes = [];
    if (phase === "play" && !discardable.has(card.id)) {
      el.classList.add("no-discard");
      notes.push(gettext("may not be discarded this turn"));
    }
    if (fresh.has(card.id)) notes.push(gettext("just drawn"));
    if (inComposer.has(card.id)) notes.push(gettext("in a meld you are building"));
    el.setAttribute("aria-label", [cardName(card), ...notes].join(", "));
    frag.append(el);
  });
  root.replaceChildren(frag);
  layOutHand(root);
}

// Spacing from the row's width: `--step` is the distance from one card to the next.
export function layOutHand(root) {
  root.querySelector(".hand-break")?.remove();
  const cards = [...root.querySelectorAll(".card")];
  if (!cards.length) return;
  const width = cards[0].offsetWidth, room = root.clientWidth - 1; // 1: rounding
  const stepFor = (n) => (n > 1 ? Math.min(width + GAP_PX, (room - width) / (n - 1)) : width + GAP_PX);
  let perRow = cards.length;
  if (stepFor(perRow) < minStep()) perRow = Math.ceil(cards.length / 2);
  root.style.setProperty("--step", `${Math.floor(stepFor(perRow) * 10) / 10}px`);
  if (perRow < cards.length) {
    const line = document.createElement("span");
    line.className = "hand-break";
    line.setAttribute("aria-hidden", "true");
    cards[perRow].before(line);
  }
}
