// Preset reactions at a table (nothing typed, nothing to moderate): the bar of buttons that
// sends one, and the bubble that shows a reaction by the seat that sent it, briefly.
// The reactions and their words are the server's (games.lists, through lists.js).
import { gettext } from "../i18n.js";
import { REACTIONS, reactionWord } from "../lists.js";

const SHOWN_MS = 4000;

export function reactionText(code) {
  return reactionWord(code) || "";
}

// Buttons in `root`, one a reaction; `send(code)` is called on a press (click, tap, Enter or
// Space: they are buttons). The bar keeps itself disabled while a send is on its way.
export function renderReactionBar(root, send) {
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", gettext("Reactions"));
  root.replaceChildren(...REACTIONS.map(({ code }) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small reaction";
    b.dataset.reaction = code;
    b.textContent = reactionText(code);
    b.addEventListener("click", async () => {
      for (const other of root.querySelectorAll("button")) other.disabled = true;
      try { await send(code); } finally {
        for (const other of root.querySelectorAll("button")) other.disabled = false;
      }
    });
    return b;
  }));
}

// A bubble with the reaction's words over `anchor` (the seat that sent it), for a few
// seconds. It lives in a layer of its own, placed by the anchor's box when it appears: the
// seats are drawn again at every move, the bubble stays. One bubble a seat (`key`). With
// `above`, it stands just above the anchor instead of on its middle (your own, over your
// section: on its middle it hid the turn's words).
export function showReaction(anchor, code, who, key = who, { above = false } = {}) {
  const text = reactionText(code);
  if (!anchor || !text) return null;
  let layer = document.querySelector(".reaction-layer");
  if (!layer) {
    layer = document.createElement("div");
    layer.className = "reaction-layer";
    layer.setAttribute("aria-live", "polite");
    document.body.append(layer);
  }
  for (const old of layer.children) if (old.dataset.key === String(key)) old.remove();
  const box = anchor.getBoundingClientRect();
  const bubble = document.createElement("p");
  bubble.className = "reaction-bubble";
  bubble.dataset.reaction = code;
  bubble.dataset.key = String(key);
  bubble.textContent = who ? `${who}: ${text}` : text;
  layer.append(bubble);
  // Centred on the seat, kept inside the window.
  const width = bubble.offsetWidth;
  const left = Math.max(4, Math.min(box.left + box.width / 2 - width / 2, innerWidth - width - 4));
  bubble.style.left = `${left + window.scrollX}px`;
  bubble.classList.toggle("above", above);
  bubble.style.top = `${(above ? box.top : box.top + box.height / 2) + window.scrollY}px`;
  setTimeout(() => bubble.remove(), SHOWN_MS);
  return bubble;
}
