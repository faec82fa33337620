// Your hand, large: one option per card in your own order, selection and legality marked.
// The cards spread over the row (overlapping only when they must) and hold still as cards
// come and go; when overlapping would leave less than MIN_STEP of a card to see and tap, the
// hand takes two rows (layOutHand).
import { cardName } from "../cards.js";
import { gettext } from "../i18n.js";
import { cardElement } from "./card.js";
import { unchanged } from "./drawn.js";

const GAP_PX = 6;
const MAX_HAND_CARDS = 11; // ten dealt and one drawn
const COARSE = globalThis.matchMedia?.("(pointer: coarse)");
const minStep = () => (COARSE?.matches || globalThis.innerWidth < 600 ? 44 : 40); // 44: a tap target

// Everything the hand's cards show: drawn again only when it changes. Another seat's move
// changes nothing here, and replacing the cards anyway would lay the page out again (the
// cards' widths are read below), restart a fresh card's animation and drop a card held
// mid-drag.
// The phase counts only as "play" or not (the turn coming back to you redraws nothing).
function drawnFrom(cards, { selected, focusId, fresh, discardable, inComposer, hinted, phase, laidDown }) {
  const ids = (set) => (set ? [...set].sort() : null);
  const playing = phase === "play";
  return JSON.stringify([cards, ids(selected), focusId, ids(fresh), playing && ids(discardable),
    ids(inComposer), ids(hinted), playing, laidDown]);
}

// `laidDown`: the contract is down, so the hand never again holds more than one card over what
// it holds now (R13 a card drawn, R16 one discarded, R15 lay-offs): it is laid out for those,
// and the room of a second row it will never need goes to the table.
export function renderHand(root, cards, shows) {
  const { selected, focusId, fresh, discardable, inComposer, hinted, phase, laidDown = false } = shows;
  if (unchanged(root, drawnFrom(cards, { ...shows, laidDown }))) return;
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
  if (laidDown) root.dataset.capacity = cards.length + (phase === "play" ? 0 : 1); // the draw to come
  else delete root.dataset.capacity;
  layOutHand(root);
}

// Spacing from the row's width: `--step` is the distance from one card to the next. The step is
// the one a full hand (MAX_HAND_CARDS) would need, so a card drawn or discarded never changes
// it. When that step would leave less than a tap target (MIN_STEP) of a card, the hand takes
// two rows of `perRow` columns, and the rows are kept from one layout to the next (rowBreak):
// a drawn card joins the row it lands in, a discard closes its gap within its row.
export function layOutHand(root) {
  root.querySelector(".hand-break")?.remove();
  const cards = [...root.querySelectorAll(".card")];
  if (!cards.length) return;
  const width = cards[0].offsetWidth, room = root.clientWidth - 1; // 1: rounding
  const stepFor = (n) => (n > 1 ? Math.min(width + GAP_PX, (room - width) / (n - 1)) : width + GAP_PX);
  const capacity = Math.max(Number(root.dataset.capacity) || MAX_HAND_CARDS, cards.length);
  let perRow = capacity;
  if (stepFor(capacity) < minStep()) {
    // Half a full hand and one more per row (6 + 5 cards and a free place): the cards spread
    // as wide as they can while a second row keeps room for a draw.
    const fit = Math.floor((room - width) / minStep()) + 1;
    perRow = Math.max(2, Math.min(fit, Math.ceil(capacity / 2) + 1));
  }
  root.style.setProperty("--step", `${Math.floor(stepFor(perRow) * 10) / 10}px`);
  root.classList.toggle("two-rows", perRow < capacity);
  const ids = cards.map((c) => c.dataset.id);
  const first = perRow < capacity ? rowBreak(rows.get(root), ids, perRow) : ids.length;
  rows.set(root, { ids, first, perRow });
  if (first < cards.length) {
    const line = document.createElement("span");
    line.className = "hand-break";
    line.setAttribute("aria-hidden", "true");
    cards[first].before(line);
  }
}

const rows = new WeakMap(); // hand element -> the last layout: {ids, first, perRow}

// How many cards the first row holds, given the last layout. A move or a sort keeps the rows'
// sizes; a card drawn or taken stays in the row it lands in (the first row ends after its last
// card still held); after a discard the second row keeps room for the next card drawn at its
// end. Only a new deal, a lay-down (several cards gone) or a new width lays the rows out afresh.
export function rowBreak(last, ids, perRow) {
  const n = ids.length;
  // Afresh: one row when it holds them all, else the first row a little the longer (6 + 4),
  // with room left at the end of the second for the cards to come.
  const fresh = () => (n <= perRow ? n : Math.min(perRow - 1, Math.ceil((n + 1) / 2)));
  if (!last || last.perRow !== perRow) return fresh();
  const now = new Set(ids);
  const gone = last.ids.filter((id) => !now.has(id)).length;
  const added = n - (last.ids.length - gone);
  if (gone === last.ids.length || gone > 1) return fresh();
  // The same cards (drawn again as a tap selects one, moved, sorted): the same rows, or the
  // cards would shift under the finger between the two taps of a double tap.
  if (!gone && !added) return last.first;
  let first;
  if (last.first >= last.ids.length) {
    first = n; // one row: it stays one while it can
  } else {
    const firstRow = new Set(last.ids.slice(0, last.first));
    first = 0;
    ids.forEach((id, i) => { if (firstRow.has(id)) first = i + 1; });
  }
  if (first === 0) return fresh();
  first = Math.min(first, perRow);
  // A card gone (a discard, a lay-off): the second row keeps room for the next draw.
  if (!added && first < perRow) first = Math.max(first, n - perRow + 1);
  return Math.max(first, n - perRow);
}
