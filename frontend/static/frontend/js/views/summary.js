// Between deals: who went out, who climbed, cards left, penalties and standings. At the end:
// places, contracts, penalties (the daily's share card: daily/sharecard.js).
import * as counts from "../counts.js";
import { format, gettext, number } from "../i18n.js";
import { seatName } from "./seats.js";

function cell(row, text, header = false) {
  const c = document.createElement(header ? "th" : "td");
  if (header) c.scope = "row";
  c.textContent = text;
  row.append(c);
  return c;
}

function table(headings) {
  const t = document.createElement("table");
  t.className = "scores";
  const head = t.createTHead().insertRow();
  for (const h of headings) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    head.append(th);
  }
  return t;
}

// The deal's end: each player's climb (rung before -> after), cards left, the deal's penalty,
// and the standings so far (contracts, then penalty points: R22), best first.
export function dealSummary(view, deal) {
  const box = document.createElement("div");
  const p = document.createElement("p");
  p.className = "summary-lead";
  const mine = deal.went_out === view.you && !view.spectator; // "You" takes its own verb form
  p.textContent = deal.ending !== "went_out" ? gettext("The stock ran out: nobody went out.")
    : mine ? gettext("You went out.")
      : format(gettext("%(name)s went out."), { name: seatName(view, deal.went_out) });
  box.append(p);
  const t = table([gettext("Place"), gettext("Player"), gettext("Rung"), gettext("Cards left"),
    gettext("Penalty"), gettext("Contracts"), gettext("Total")]);
  t.classList.add("deal-summary");
  // On a phone the cards left go under each name (ladder.css): seven columns do not fit.
  const [place, , , cardsLeft] = t.tHead.rows[0].cells;
  cardsLeft.className = "cards-left";
  place.className = "place"; // "#" on a phone
  const body = t.createTBody();
  const rows = view.players.map((pl, seat) => ({
    seat, rung: pl.rung, climbed: deal.climbed[seat],
    cards: seat === view.you ? view.hand?.length ?? null : pl.hand_size, // null: not known
    penalty: deal.penalties[seat], contracts: deal.contracts?.[seat] ?? pl.climbed,
    total: deal.totals?.[seat] ?? pl.penalty,
  }));
  const ranked = [...rows].sort((a, b) => b.contracts - a.contracts || a.total - b.total || a.seat - b.seat);
  ranked.forEach((r, i) => {
    const row = body.insertRow();
    if (r.seat === view.you) row.className = "me";
    const tied = i > 0 && ranked[i - 1].contracts === r.contracts && ranked[i - 1].total === r.total;
    cell(row, tied ? "" : number(i + 1));
    const name = cell(row, seatName(view, r.seat), true);
    const note = document.createElement("span");
    note.className = "cards-note";
    if (r.cards !== null) {
      note.textContent = counts.cards(r.cards);
      name.append(note);
    }
    const climb = cell(row, r.climbed ? `${number(r.rung)} → ${number(Math.min(10, r.rung + 1))}` : number(r.rung));
    climb.setAttribute("aria-label", r.climbed
      ? format(gettext("climbed from rung %(from)s to %(to)s"), { from: r.rung, to: Math.min(10, r.rung + 1) })
      : format(gettext("stays on rung %(rung)s"), { rung: r.rung }));
    if (r.climbed) climb.className = "climbed";
    cell(row, r.cards === null ? "–" : number(r.cards)).className = "cards-left";
    cell(row, number(r.penalty));
    cell(row, number(r.contracts));
    cell(row, number(r.total));
  });
  box.append(t);
  return box;
}

export function resultTable(view, result) {
  const rows = Array.isArray(result) ? result : view.players.map((p) => ({
    seat: p.seat, contracts: p.climbed, penalty: p.penalty, place: null,
  }));
  const t = table([gettext("Place"), gettext("Player"), gettext("Contracts"), gettext("Penalty")]);
  const body = t.createTBody();
  for (const r of [...rows].sort((a, b) => (a.place ?? 0) - (b.place ?? 0))) {
    const row = body.insertRow();
    if (r.seat === view.you) row.className = "me";
    cell(row, r.place ? number(r.place) : "");
    cell(row, seatName(view, r.seat), true);
    cell(row, number(r.contracts));
    cell(row, number(r.penalty));
  }
  return t;
}
