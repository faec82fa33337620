// Between deals: who went out, penalties, who climbed. At the end: places, contracts,
// penalties (the daily's share card: views/sharecard.js).
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

export function dealSummary(view, deal, totals) {
  const box = document.createElement("div");
  const p = document.createElement("p");
  p.className = "summary-lead";
  p.textContent = deal.ending === "went_out"
    ? format(gettext("%(name)s went out."), { name: seatName(view, deal.went_out) })
    : gettext("The stock ran out: nobody went out.");
  box.append(p);
  const t = table([gettext("Player"), gettext("Contract"), gettext("Penalty"), gettext("Total")]);
  const body = t.createTBody();
  view.players.forEach((pl, seat) => {
    const row = body.insertRow();
    if (seat === view.you) row.className = "me";
    cell(row, seatName(view, seat), true);
    cell(row, deal.climbed[seat] ? `✓ ${gettext("climbed")}` : "—");
    cell(row, number(deal.penalties[seat]));
    cell(row, number(totals ? totals[seat] : pl.penalty));
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
