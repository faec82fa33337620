// The three computer players around the table: name, rung, contract, laid-down mark, hand
// size and penalty. Renders idempotently from a GameView.
import { describeContract } from "../contracts.js";
import * as counts from "../counts.js";
import { format, gettext } from "../i18n.js";
import { cardElement } from "./card.js";
import { drawnAs, unchanged } from "./drawn.js";

const POSITIONS = { 1: "left", 2: "top", 3: "right" };

export function seatName(view, seat) {
  if (seat === view.you && !view.spectator) return gettext("You");
  return view.players[seat]?.name || format(gettext("Player %(n)s"), { n: seat + 1 });
}

// Whether other people sit at this game (a table for friends), not only computer players.
export function withPeople(view) {
  return view.players.some((p) => !p.bot && p.seat !== view.you);
}

// `lastMoves`: seat -> its last move this deal in a few words (views/log.js), shown on a
// narrow screen, where the log has room for only a few lines. `away`: the seats that are
// away (the store's: the view's, then the socket's frames). `left`: in a replay, the seats
// whose person had left the game by then (the computer played them).
export function renderSeats(root, view, lastMoves = new Map(), away = new Set(), left = new Set()) {
  const seats = view.players.filter((p) => p.seat !== view.you).map((p) => {
    const key = drawnFrom(view, p, lastMoves, away, left);
    const old = root.querySelector(`:scope > [data-seat="${p.seat}"]`);
    if (old && unchanged(old, key)) {
      old.classList.remove("acting"); // as a seat drawn anew: the playback marks the mover after
      return old;
    }
    return drawnAs(seatElement(view, p, lastMoves, away, left), key);
  });
  // Only the seats that changed are replaced: a move changes one or two of them.
  seats.forEach((el, i) => {
    const there = root.children[i];
    if (there !== el) there ? there.replaceWith(el) : root.append(el);
  });
  while (root.children.length > seats.length) root.lastElementChild.remove();
}

function drawnFrom(view, p, lastMoves, away, left) {
  return JSON.stringify([p, seatName(view, p.seat), view.turn === p.seat && view.phase !== "finished",
    view.hands?.[p.seat], away.has(p.seat), left.has(p.seat), view.dealer === p.seat,
    lastMoves.get(p.seat) || ""]);
}

function seatElement(view, p, lastMoves, away, left) {
  const el = document.createElement("article");
  el.className = `seat seat-${POSITIONS[p.seat] || "other"}`;
  el.dataset.seat = p.seat;
  if (view.turn === p.seat && view.phase !== "finished") el.classList.add("active");
  el.setAttribute("aria-label", seatName(view, p.seat));
  const fan = Math.min(p.hand_size, 12);
  const open = view.hands?.[p.seat]; // a replay shows every hand face up
  el.innerHTML = `
    <header><h3></h3><span class="badges"></span></header>
    <p class="rung"></p>
    <p class="contract"></p>
    <div class="fan" aria-hidden="true">${'<span class="mini-back"></span>'.repeat(fan)}</div>
    <p class="stats"><span class="hand-size"></span><span class="penalty"></span></p>
    <p class="last-move"></p>`;
  el.querySelector("h3").textContent = seatName(view, p.seat);
  const badges = el.querySelector(".badges");
  if (away.has(p.seat)) { // first: on a phone the badges' row shows what fits
    el.classList.add("away");
    badges.append(badge(gettext("Away"), "away"));
  }
  if (left.has(p.seat)) {
    el.classList.add("away", "left");
    const gone = badge(gettext("Left"), "away");
    gone.title = format(gettext("%(name)s left the game; the computer played the seat from then on."), { name: seatName(view, p.seat) });
    badges.append(gone);
    el.setAttribute("aria-label", `${seatName(view, p.seat)} · ${gone.title}`);
  }
  if (view.dealer === p.seat) badges.append(badge(gettext("Dealer"), "dealer"));
  if (p.laid_down) badges.append(badge(gettext("Laid down"), "down"));
  el.querySelector(".rung").textContent = format(gettext("Rung %(rung)s · %(contracts)s"), { rung: p.rung, contracts: counts.contractsDone(p.climbed) });
  el.querySelector(".contract").textContent = describeContract(p.contract);
  if (open) showHand(el.querySelector(".fan"), open, seatName(view, p.seat));
  el.querySelector(".hand-size").textContent = counts.cards(p.hand_size);
  el.querySelector(".penalty").textContent = counts.penaltyPoints(p.penalty);
  el.querySelector(".last-move").textContent = lastMoves.get(p.seat) || "";
  return el;
}

function showHand(fan, cards, who) {
  fan.className = "fan open";
  fan.removeAttribute("aria-hidden");
  fan.setAttribute("role", "list");
  fan.setAttribute("aria-label", format(gettext("%(who)s's cards"), { who }));
  fan.replaceChildren(...cards.map((c) => cardElement(c, { small: true, role: "listitem" })));
}

function badge(text, kind) {
  const b = document.createElement("span");
  b.className = `badge ${kind}`;
  if (kind !== "down") { b.textContent = text; return b; }
  // The tick and the words apart: a phone shows the tick alone (table.css), read out whole.
  const word = document.createElement("span");
  word.className = "badge-word";
  word.textContent = ` ${text}`;
  b.append("✓", word);
  return b;
}
