// A card flying across the table during the computer players' turns: from the stock or the
// discard pile to a seat, from a seat to the discard pile or a meld. A fixed-position copy
// of the card moves with a CSS transform (set through element.style, which the CSP allows)
// while the real card waits, hidden, where it lands. No flight at the "instant" speed or
// when the system asks for reduced motion.
import { reducedMotion } from "../settings.js";
import { cardBack, cardElement } from "../views/card.js";

export const FLIGHT_SHARE = 0.6; // of the pause after each step: the card lands before the next

export function flightsWanted(delayMs) {
  return delayMs > 0 && !reducedMotion();
}

function visibleRect(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? r : null;
}

// Where cards go to and leave from at a seat: its fan of card backs, or the seat itself on
// a phone (where the fan is not shown), as a card-sized box in its middle.
function seatRect(seatsRoot, seat, size) {
  const box = seatsRoot.querySelector(`[data-seat="${seat}"]`);
  const r = visibleRect(box?.querySelector(".fan")) || visibleRect(box);
  if (!r) return null;
  const w = size?.width || 40, h = size?.height || 56;
  return { left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - h / 2, width: w, height: h };
}

function rectOf(el) {
  const r = visibleRect(el);
  return r && { left: r.left, top: r.top, width: r.width, height: r.height };
}

// Fly `card` (null: a card back) from one rect to another over `ms`; `landing` (optional)
// stays hidden until the card arrives.
export function fly(card, from, to, ms, landing = null) {
  if (!from || !to) return;
  const el = card ? cardElement(card, { role: null }) : cardBack();
  el.classList.add("flying-card");
  el.setAttribute("aria-hidden", "true");
  el.removeAttribute("aria-label");
  Object.assign(el.style, {
    left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px`,
    transitionDuration: `${ms}ms`,
  });
  el.style.setProperty("--card-w", `${from.width}px`);
  el.style.setProperty("--card-h", `${from.height}px`);
  landing?.classList.add("landing");
  document.body.append(el);
  let done = false;
  const land = () => {
    if (done) return;
    done = true;
    el.remove();
    landing?.classList.remove("landing");
  };
  el.addEventListener("transitionend", land, { once: true });
  setTimeout(land, ms + 80);
  el.getBoundingClientRect(); // start from `from`
  const scale = to.width / from.width;
  el.style.transform = `translate(${to.left - from.left}px, ${to.top - from.top}px) scale(${scale})`;
}

// Where a computer player's card leaves from (`els`: the table's elements), measured before
// the step is drawn; null when nothing flies.
export function startFlight(els, type, d) {
  if (type === "drew") {
    return d.from === "discard"
      ? rectOf(els.discardTop.querySelector(".card:not(.under)"))
      : rectOf(els.stock.querySelector(".card"));
  }
  if (type === "discarded" || type === "laid_off" || type === "laid_down") {
    return seatRect(els.seats, d.seat, els.stock.querySelector(".card")?.getBoundingClientRect());
  }
  return null;
}

// ...and where it lands, once the step is drawn.
export function landFlight(els, type, d, from, ms) {
  const meld = (id) => els.melds.querySelector(`[data-meld="${CSS.escape(String(id))}"]`);
  if (type === "drew") {
    fly(d.from === "discard" ? d.card : null, from, seatRect(els.seats, d.seat, from), ms);
  } else if (type === "discarded") {
    const top = els.discardTop.querySelector(".card:not(.under)");
    fly(d.card, from, rectOf(top), ms, top);
  } else if (type === "laid_off" && d.meld) {
    const landing = meld(d.meld.id)?.querySelector(`.card[data-id="${CSS.escape(d.card.id)}"]`);
    fly(d.card, from, rectOf(landing), ms, landing);
  } else if (type === "laid_down") {
    for (const m of d.melds || []) {
      const box = meld(m.id);
      fly(m.cards[0], from, rectOf(box?.querySelector(".card")), ms, box);
    }
  }
}
