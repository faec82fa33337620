// The stock and discard pile with counts, and every meld on the table with its owner and
// its jokers' values. Melds that accept the selected card become lay-off targets.
import { describeContract } from "../contracts.js";
import { format, gettext, ngettext, number } from "../i18n.js";
import { scrollBehavior } from "../settings.js";
import { cardElement } from "./card.js";
import { unchanged } from "./drawn.js";
import { seatName } from "./seats.js";

export function renderPiles(els, view, { canDraw, below = null }) {
  els.stockCount.textContent = number(view.stock_size);
  els.discardCount.textContent = number(view.discard_size);
  els.stockLabel.textContent = format(ngettext(
    "%(n)s card: draw one (S)", "%(n)s cards: draw one (S)", view.stock_size), { n: view.stock_size });
  els.discardLabel.textContent = format(ngettext(
    "%(n)s card: take the top one (P)", "%(n)s cards: take the top one (P)", view.discard_size), { n: view.discard_size });
  els.stock.disabled = !canDraw("stock");
  els.discard.disabled = !canDraw("discard");
  const top = view.discard_top;
  // The card beneath the top (when known) lies under it, so a card flying onto the pile
  // never uncovers an empty slot.
  const under = below && view.discard_size > 1 ? cardElement(below, { role: null }) : emptyPile();
  under.classList.add("under");
  under.setAttribute("aria-hidden", "true");
  els.discardTop.replaceChildren(under, ...(top ? [cardElement(top)] : []));  // an img: its name is the card's
}

function emptyPile() {
  const el = document.createElement("span");
  el.className = "card empty";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// Everything the melds show: drawn again only when it changes (a lay-down, a lay-off, a new
// selection's targets), not at each draw and discard, which would lay the table out again and
// count the hidden melds anew (countHiddenMelds).
function drawnFrom(view, targets) {
  return JSON.stringify([view.table, view.you, view.spectator,
    view.table.map((m) => seatName(view, m.owner)), [...targets]]);
}

// targets: Map meld id -> ["low"|"high", ...] for the selected card (from the view's hints).
export function renderMelds(root, view, targets) {
  if (unchanged(root, drawnFrom(view, targets))) return;
  const frag = document.createDocumentFragment();
  if (!view.table.length) {
    const p = document.createElement("p");
    p.className = "no-melds";
    p.textContent = gettext("No melds on the table yet.");
    frag.append(p);
  }
  for (const meld of view.table) {
    const box = document.createElement("div");
    box.className = `meld ${meld.kind}` + (meld.owner === view.you ? " mine" : "");
    box.dataset.meld = meld.id;
    const kind = meld.kind === "group" ? gettext("group") : gettext("run");
    const label = meld.owner === view.you && !view.spectator
      ? format(gettext("Your %(kind)s"), { kind })
      : format(gettext("%(owner)s's %(kind)s"), { owner: seatName(view, meld.owner), kind });
    const head = document.createElement("p");
    head.className = "meld-owner";
    head.textContent = label;
    const cards = document.createElement("div");
    cards.className = "meld-cards";
    cards.setAttribute("role", "list");
    cards.setAttribute("aria-label", label);
    for (const c of meld.cards) {
      const el = cardElement(c, { small: true, role: "listitem" });
      cards.append(el);
    }
    box.append(head, cards);
    const ends = targets.get(meld.id);
    if (ends) {
      box.classList.add("target");
      const endsUnique = [...new Set(ends)];
      for (const end of endsUnique) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "btn small lay-off-here";
        b.dataset.layoff = meld.id;
        b.dataset.end = end;
        const where = meld.kind === "group" || endsUnique.length === 1
          ? gettext("Lay off here")
          : end === "low" ? gettext("Lay off at the low end") : gettext("Lay off at the high end");
        b.textContent = where;
        b.setAttribute("aria-label", `${where}: ${label}`);
        box.append(b);
      }
    }
    frag.append(box);
  }
  root.replaceChildren(frag);
  // A newly selected card's first target is brought into the table's view, with its button.
  const shown = [...targets.keys()].join();
  if (shown && root.dataset.targetsShown !== shown) {
    root.querySelector(".meld.target")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  root.dataset.targetsShown = shown;
}

// The melds the table's view (`centre`, which scrolls inside itself) hides (most of), below
// or above it: a button at the view's foot counts them ("3 more melds ↓") and scrolls to them, so a
// narrow screen never hides a meld without saying so.
export function countHiddenMelds(centre, melds, button) {
  let frame = 0;
  const update = () => {
    frame = 0;
    const view = centre.getBoundingClientRect();
    const top = view.top + centre.clientTop, bottom = top + centre.clientHeight;
    let above = 0, below = 0;
    for (const meld of melds.querySelectorAll(".meld")) { // hidden: less than half of it seen
      const r = meld.getBoundingClientRect(), middle = (r.top + r.bottom) / 2;
      if (middle > bottom) below += 1;
      else if (middle < top) above += 1;
    }
    const n = below || above;
    button.hidden = !n;
    button.dataset.towards = below ? "down" : "up";
    if (n) {
      button.textContent = format(ngettext("%(n)s more meld", "%(n)s more melds", n), { n })
        + (below ? " ↓" : " ↑");
    }
  };
  const later = () => { frame ||= requestAnimationFrame(update); };
  centre.addEventListener("scroll", later, { passive: true });
  new ResizeObserver(later).observe(centre);
  new MutationObserver(later).observe(melds, { childList: true });
  button.addEventListener("click", () => {
    const step = centre.clientHeight * 0.8;
    centre.scrollBy({ top: button.dataset.towards === "down" ? step : -step, behavior: scrollBehavior() });
  });
}

export function contractLine(view) {
  const me = view.players[view.you];
  if (!me) return "";
  const text = format(gettext("Rung %(rung)s: %(contract)s"), { rung: me.rung, contract: describeContract(me.contract) });
  return me.laid_down ? `${text} ✓` : text;
}
