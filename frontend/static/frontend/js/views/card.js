// One card, drawn with CSS: a large rank and suit in the corner, a big suit in the middle.
import { GLYPH, cardName, isJoker } from "../cards.js";
import { gettext } from "../i18n.js";

export function cardElement(card, { tag = "div", small = false, role = "img" } = {}) {
  const el = document.createElement(tag);
  el.className = "card" + (small ? " small" : "");
  if (role) el.setAttribute("role", role);
  el.dataset.id = card.id;
  if (isJoker(card)) {
    el.classList.add("joker");
    // On the table a joker's corner shows the card it stands for (R8), so it reads when fanned.
    const corner = card.as ? `<b>${card.as.rank}</b><i>${card.as.suit ? GLYPH[card.as.suit] : ""}★</i>` : "★";
    el.innerHTML = `<span class="corner" aria-hidden="true">${corner}</span><span class="pip" aria-hidden="true">★</span><span class="joker-word" aria-hidden="true"></span>`;
    el.querySelector(".joker-word").textContent = gettext("Joker");
  } else {
    el.dataset.suit = card.suit;
    el.innerHTML = `<span class="corner" aria-hidden="true"><b>${card.rank}</b><i>${GLYPH[card.suit]}</i></span><span class="pip" aria-hidden="true">${GLYPH[card.suit]}</span>`;
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
