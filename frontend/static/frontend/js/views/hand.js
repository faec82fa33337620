// Your hand, large: one option per card in your own order, selection and legality marked.
import { cardName } from "../cards.js";
import { gettext } from "../i18n.js";
import { cardElement } from "./card.js";

export function renderHand(root, cards, { selected, focusId, fresh, discardable, inComposer, phase }) {
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
  root.style.setProperty("--cards", String(cards.length));
}
