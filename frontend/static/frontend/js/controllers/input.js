// Mouse, touch and keyboard on the table. A plain turn takes two gestures: click the stock
// (or press S), then double-click / double-tap a card (or press D on it).
import { showInfo } from "../errors.js";
import { gettext } from "../i18n.js";

const DOUBLE_TAP_MS = 400;
const DRAG_START_PX = 8;

export function bindTable(root, game, panels) {
  const { hand, stock, discard } = game.els;
  bindLayOffKeys(game);

  stock.addEventListener("click", () => game.draw("stock"));
  discard.addEventListener("click", () => game.draw("discard"));
  const openComposer = () => { panels.openedComposer(); game.openComposer(); };
  root.querySelector("[data-action=laydown]").addEventListener("click", openComposer);
  root.querySelector("[data-action=layoff]").addEventListener("click", () => game.layOff(single(game)));
  root.querySelector("[data-action=discard]").addEventListener("click", () => game.discard(single(game)));
  root.querySelector("[data-laydown-confirm]").addEventListener("click", () => game.layDown());
  root.querySelector("[data-laydown-cancel]").addEventListener("click", () => panels.closeComposer());
  root.querySelector("[data-laydown-arrange]").addEventListener("click", () => game.arrange());
  root.querySelector("[data-skip]").addEventListener("click", () => game.skip());
  root.querySelector("[data-back]").addEventListener("click", () => game.back());
  root.querySelector("[data-help-open]").addEventListener("click", () => panels.openHelp());
  root.querySelector("[data-help-close]").addEventListener("click", () => panels.help.close());
  root.querySelector("[data-hint]").addEventListener("click", () => game.hint());
  for (const b of root.querySelectorAll("[data-sort]")) b.addEventListener("click", () => game.sortHand(b.dataset.sort));

  game.els.melds.addEventListener("click", (e) => {
    const b = e.target.closest("[data-layoff]");
    if (b) game.layOff(single(game), Number(b.dataset.layoff), b.dataset.end);
  });
  game.els.slots.addEventListener("click", (e) => {
    const add = e.target.closest("[data-slot-add]");
    const back = e.target.closest("[data-unslot]");
    const flip = e.target.closest("[data-joker-flip]");
    if (add) { game.composer.add(Number(add.dataset.slotAdd), [...game.store.selected]); game.store.selected.clear(); }
    if (back) game.composer.remove(back.dataset.unslot);
    if (flip) game.composer.flipJoker(Number(flip.dataset.jokerFlip), game.store.byId());
    if (add || back || flip) game.render();
  });

  bindPointer(hand, game);
  bindKeys(hand, game, panels, openComposer);
}

function single(game) {
  if (game.store.selected.size === 1) return [...game.store.selected][0];
  return null;
}

function toggle(game, id) {
  if (game.store.selected.has(id)) game.store.selected.delete(id); else game.store.selected.add(id);
  game.store.focusId = id;
  game.render();
  game.els.hand.querySelector(`[data-id="${CSS.escape(id)}"]`)?.focus({ preventScroll: true });
}

// A joker thrown away by a quick gesture (a double tap or click, D) is asked about once first:
// the same gesture again throws it. The settings' "askJoker" turns the question off.
let jokerAsked = null;

// Whether the gesture only asked (true) or may go on and discard (false).
function asksFirst(game, id) {
  const card = game.store.byId().get(id);
  const legal = (game.store.legal().discard || []).includes(id);
  if (card?.joker && legal && game.settings.askJoker !== false && jokerAsked !== id) {
    jokerAsked = id;
    showInfo(game.els.message, gettext("Discard the joker? Do it again to confirm."));
    return true;
  }
  jokerAsked = null;
  return false;
}

// Tap/click selects, a second tap within DOUBLE_TAP_MS discards, a drag reorders the hand
// or drops the card on the discard pile, a lay-off target or a composer slot.
function bindPointer(hand, game) {
  let drag = null, lastTap = { id: null, at: 0 };

  // A double tap is two taps on one card with nothing between: a click on the stock, a
  // button or a key in the meantime starts over (tap, draw, tap again only selects).
  const forgetTap = () => { lastTap = { id: null, at: 0 }; };
  document.addEventListener("pointerdown", (e) => {
    if (e.target.closest?.(".hand .card")?.dataset.id !== lastTap.id) forgetTap();
  }, true);
  document.addEventListener("keydown", forgetTap, true);

  hand.addEventListener("pointerdown", (e) => {
    const card = e.target.closest(".card");
    if (!card || e.button > 0) return;
    drag = { id: card.dataset.id, el: card, x: e.clientX, y: e.clientY, moving: false, pointer: e.pointerId };
  });

  hand.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < DRAG_START_PX) return;
    if (!drag.moving) {
      drag.moving = true;
      forgetTap(); // a drag between two taps: the second only selects
      drag.el.setPointerCapture(e.pointerId);
      drag.el.classList.add("dragging");
      document.body.classList.add("is-dragging");
    }
    drag.el.style.transform = `translate(${dx}px, ${dy}px)`;
    markDrop(e.clientX, e.clientY);
  });

  const end = (e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const d = drag;
    drag = null;
    document.body.classList.remove("is-dragging");
    if (!d.moving) return tap(d.id);
    d.el.style.transform = "";
    d.el.classList.remove("dragging");
    clearDrop();
    if (e.type === "pointercancel") return game.render();
    drop(d.id, e.clientX, e.clientY);
  };
  hand.addEventListener("pointerup", end);
  hand.addEventListener("pointercancel", end);

  function tap(id) {
    const now = performance.now();
    if (lastTap.id === id && now - lastTap.at < DOUBLE_TAP_MS) {
      lastTap = { id: null, at: 0 };
      game.store.selected.delete(id);
      return asksFirst(game, id) ? undefined : game.discard(id);
    }
    lastTap = { id, at: now };
    toggle(game, id);
  }

  function target(x, y) {
    const el = document.elementsFromPoint(x, y).find((n) => n.matches?.("[data-discard], .meld.target, .slot, .hand .card:not(.dragging)"));
    return el || null;
  }

  function markDrop(x, y) {
    clearDrop();
    target(x, y)?.classList.add("drop-over");
  }

  function clearDrop() {
    for (const el of document.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
  }

  function drop(id, x, y) {
    const t = target(x, y);
    if (!t) return game.render();
    if (t.matches("[data-discard]")) return game.discard(id);
    if (t.matches(".meld.target")) {
      const buttons = t.querySelectorAll("[data-layoff]");
      return game.layOff(id, Number(t.dataset.meld), buttons.length === 1 ? buttons[0].dataset.end : undefined);
    }
    if (t.matches(".slot")) { game.composer.add(Number(t.dataset.slot), [id]); return game.render(); }
    const cards = [...game.els.hand.querySelectorAll(".card")];
    const rect = t.getBoundingClientRect();
    let index = cards.indexOf(t);
    const from = game.store.order.indexOf(id);
    if (x > rect.left + rect.width / 2) index += 1;
    if (from < index) index -= 1;
    game.moveCardTo(id, index);
  }
}

function typing(e) {
  return e.target.closest?.("input, select, textarea, dialog") || e.ctrlKey || e.metaKey || e.altKey;
}

function bindKeys(hand, game, panels, openComposer) {
  hand.addEventListener("keydown", (e) => {
    const card = e.target.closest(".card");
    if (!card) return;
    const id = card.dataset.id;
    const cards = [...hand.querySelectorAll(".card")];
    const i = cards.indexOf(card);
    const focus = (j) => {
      const next = cards[Math.max(0, Math.min(cards.length - 1, j))];
      if (!next) return;
      cards.forEach((c) => { c.tabIndex = -1; });
      next.tabIndex = 0;
      game.store.focusId = next.dataset.id;
      next.focus();
    };
    switch (e.key) {
      case "ArrowLeft": case "ArrowUp":
        e.preventDefault();
        if (e.shiftKey) { game.store.focusId = id; game.moveCard(id, -1); refocus(hand, id); } else focus(i - 1);
        break;
      case "ArrowRight": case "ArrowDown":
        e.preventDefault();
        if (e.shiftKey) { game.store.focusId = id; game.moveCard(id, 1); refocus(hand, id); } else focus(i + 1);
        break;
      case "Home": e.preventDefault(); focus(0); break;
      case "End": e.preventDefault(); focus(cards.length - 1); break;
      case " ": case "Enter": e.preventDefault(); toggle(game, id); break;
      case "d": case "D": case "Delete":
        e.preventDefault();
        if (asksFirst(game, id)) break;
        game.store.focusId = cards[i + 1]?.dataset.id || cards[i - 1]?.dataset.id || null;
        game.discard(id);
        break;
      case "l": case "L": e.preventDefault(); if (!offerLayOffs(game, id)) game.layOff(id); break;
      default: return;
    }
    e.stopPropagation();
  });

  document.addEventListener("keydown", (e) => {
    if (typing(e) || document.querySelector("dialog[open]")) return;
    switch (e.key) {
      case "?": panels.openHelp(); break;
      case "a": case "A": openComposer(); break;
      case "s": case "S": game.draw("stock"); break;
      case "p": case "P": game.draw("discard"); break;
      case "h": case "H": game.hint(); break;
      case "c": case "C": panels.toggleScores(); break;
      default: return;
    }
    e.preventDefault();
  });
}

// L on a card that fits more than one meld (or both ends of a run): the card alone is selected
// and focus goes to its first "Lay off here"; the arrow keys move between them, Enter lays the
// card off there, Escape goes back to the card (bindLayOffKeys).
function offerLayOffs(game, id) {
  const places = [...game.store.targetsFor(id).values()].reduce((n, ends) => n + new Set(ends).size, 0);
  if (places < 2 || !game.store.myTurn) return false;
  game.store.selected.clear();
  game.store.selected.add(id);
  game.store.focusId = id;
  game.render();
  game.els.melds.querySelector("[data-layoff]")?.focus();
  showInfo(game.els.message, gettext("Choose the meld with the arrow keys, then Enter (Escape: back to your hand)."));
  return true;
}

function bindLayOffKeys(game) {
  game.els.melds.addEventListener("keydown", (e) => {
    const button = e.target.closest?.("[data-layoff]");
    if (!button) return;
    const all = [...game.els.melds.querySelectorAll("[data-layoff]")];
    const i = all.indexOf(button);
    switch (e.key) {
      case "ArrowRight": case "ArrowDown": all[(i + 1) % all.length].focus(); break;
      case "ArrowLeft": case "ArrowUp": all[(i - 1 + all.length) % all.length].focus(); break;
      case "Escape": if (single(game)) refocus(game.els.hand, single(game)); break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
  });
}

function refocus(hand, id) {
  const el = hand.querySelector(`[data-id="${CSS.escape(id)}"]`);
  if (!el) return;
  for (const c of hand.querySelectorAll(".card")) c.tabIndex = -1;
  el.tabIndex = 0;
  el.focus();
}
