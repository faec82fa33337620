// One card, drawn with CSS: a large rank and suit in the corner, a big suit in the middle.
import { GLYPH, cardName, isJoker } from "../cards.js";
import { gettext } from "../i18n.js";

export function cardElement(card, { tag = "div", small = false, role = "img" } = {}) {
  const el = document.createElement(tag);
  el.className = "card" + (small ? " small" : "");
  if (role) el.setAttribute("role", role);
  el.dataset.id = card.id;
  // The face is drawn from data attributes by CSS (generated content), so the card's only
  // text for assistive technology is its name: "seven of hearts".
  const corner = document.createElement("span");
  corner.className = "corner";
  const pip = document.createElement("span");
  pip.className = "pip";
  if (isJoker(card)) {
    el.classList.add("joker");
    // On the table a joker's corner shows the card it stands for (R8), so it reads when fanned.
    corner.dataset.rank = card.as ? card.as.rank : "★";
    corner.dataset.glyph = card.as ? `${card.as.suit ? GLYPH[card.as.suit] : ""}★` : "";
    pip.dataset.glyph = "★";
    const word = document.createElement("span");
    word.className = "joker-word";
    word.dataset.word = gettext("Joker");
    el.append(corner, pip, word);
  } else {
    el.dataset.suit = card.suit;
    corner.dataset.rank = card.rank;
    corner.dataset.glyph = GLYPH[card.suit];
    pip.dataset.glyph = GLYPH[card.suit];
    el.append(corner, pip);
  }
  el.setAttribute("aria-label", cardName(card));
  return el;
}

export function cardBack({ small = false } = {}) {
  const el = document.createElement("span");
  el.className = "card back" + (small ? " small" : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}
