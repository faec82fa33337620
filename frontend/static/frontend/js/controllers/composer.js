// The meld composer: one slot per requirement of the contract. Cards are added from the
// selection; each slot is checked as it is built and says which requirement it fills.
import { checkMeld, isJoker, theCard } from "../cards.js";
import { describeRequirement } from "../contracts.js";
import { format, gettext } from "../i18n.js";
import { cardElement } from "../views/card.js";

export class Composer {
  constructor(root) {
    this.root = root;
    this.slots = null;
  }

  get open() {
    return this.slots !== null;
  }

  start(contract) {
    this.slots = contract.melds.map((m) => ({ kind: m.kind, min: m.min_cards, ids: [], jokersLow: 0 }));
  }

  close() {
    this.slots = null;
  }

  ids() {
    return new Set(this.open ? this.slots.flatMap((s) => s.ids) : []);
  }

  add(index, ids) {
    for (const slot of this.slots) slot.ids = slot.ids.filter((id) => !ids.includes(id));
    this.slots[index].ids.push(...ids);
  }

  remove(id) {
    if (!this.open) return;
    for (const slot of this.slots) slot.ids = slot.ids.filter((x) => x !== id);
  }

  // Fill the slots from a lay-down the server made (the view's legal.lay_downs, the hint's):
  // melds of card ids, each put in the slot of a requirement it fills.
  fillFrom(melds, byId) {
    const taken = this.slots.map(() => false);
    const kindOf = (cards) => {
      const naturals = cards.filter((c) => !isJoker(c));
      return naturals.every((c) => c.rank === naturals[0].rank) ? "group" : "run";
    };
    const cardMelds = melds.map((ids) => ids.map((id) => byId.get(id)));
    for (const cards of cardMelds.sort((a, b) => b.length - a.length)) {
      const i = this.slots.findIndex((s, k) => !taken[k] && s.kind === kindOf(cards) && cards.length >= s.min);
      if (i < 0) continue;
      taken[i] = true;
      this.slots[i].ids = cards.map((c) => c.id);
      this.slots[i].jokersLow = 0;
    }
  }

  // Each slot checked: {ok, cards (meld order), problem}; drops ids no longer in hand.
  checked(byId) {
    return this.slots.map((slot) => {
      slot.ids = slot.ids.filter((id) => byId.has(id));
      return checkMeld(slot.ids.map((id) => byId.get(id)), slot.kind, slot.min, slot.jokersLow);
    });
  }

  // The lay-down action's melds (run cards low to high), or null while any slot is not ready.
  melds(byId) {
    const checked = this.checked(byId);
    return checked.every((c) => c.ok) ? checked.map((c) => c.cards.map((card) => card.id)) : null;
  }

  render(byId, hasSelection) {
    const checked = this.checked(byId);
    const frag = document.createDocumentFragment();
    this.slots.forEach((slot, index) => {
      const result = checked[index];
      const box = document.createElement("div");
      box.className = "slot" + (result.ok ? " ok" : "") + (slot.ids.length ? "" : " empty");
      box.dataset.slot = index;
      const title = document.createElement("p");
      title.className = "slot-title";
      const req = describeRequirement({ kind: slot.kind, min_cards: slot.min });
      title.textContent = result.ok
        ? format(gettext("✓ fills %(requirement)s"), { requirement: req })
        : slot.ids.length ? `${req}: ${result.problem}` : format(gettext("%(requirement)s: add cards"), { requirement: req });
      const cards = document.createElement("div");
      cards.className = "slot-cards";
      for (const card of result.cards) {
        const b = cardElement(card, { tag: "button", small: true, role: null });
        b.type = "button";
        b.dataset.unslot = card.id;
        b.setAttribute("aria-label", format(gettext("Take %(card)s back"), { card: theCard(card) }));
        cards.append(b);
      }
      const add = document.createElement("button");
      add.type = "button";
      add.className = "btn small";
      add.dataset.slotAdd = index;
      add.disabled = !hasSelection;
      add.textContent = gettext("Add selected cards");
      add.setAttribute("aria-label", format(gettext("Add selected cards to %(requirement)s"), { requirement: req }));
      box.append(title, cards, add);
      const jokers = result.cards.filter(isJoker).length;
      if (slot.kind === "run" && jokers && result.ok) {
        const flip = document.createElement("button");
        flip.type = "button";
        flip.className = "btn small";
        flip.dataset.jokerFlip = index;
        flip.textContent = gettext("Move a joker to the other end");
        box.append(flip);
      }
      frag.append(box);
    });
    this.root.replaceChildren(frag);
    return checked.every((c) => c.ok);
  }

  flipJoker(index, byId) {
    const slot = this.slots[index];
    const jokers = slot.ids.filter((id) => isJoker(byId.get(id))).length;
    slot.jokersLow = (slot.jokersLow + 1) % (jokers + 1);
  }
}
