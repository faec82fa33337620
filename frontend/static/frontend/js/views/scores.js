// "Scores so far": each player's contract (✓) and penalty points in every finished deal of
// this game, from GameView.deals, then contracts completed and total penalty points.
import * as counts from "../counts.js";
import { gettext, number } from "../i18n.js";
import { seatName } from "./seats.js";

function hidden(text) {
  const span = document.createElement("span");
  span.className = "visually-hidden";
  span.textContent = text;
  return span;
}

export function renderScores(root, view) {
  const deals = view.deals || [];
  const t = document.createElement("table");
  t.className = "scores deal-scores";
  const caption = t.createCaption();
  caption.className = "visually-hidden";
  caption.textContent = gettext("Each player's result in every deal so far");
  const head = t.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.scope = "col";
  corner.textContent = gettext("Deal");
  head.append(corner);
  for (const p of view.players) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = seatName(view, p.seat);
    if (p.seat === view.you) th.className = "me";
    head.append(th);
  }
  const body = t.createTBody();
  for (const d of deals) {
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = number(d.deal);
    row.append(th);
    view.players.forEach((p, seat) => {
      const td = row.insertCell();
      if (seat === view.you) td.className = "me";
      if (d.climbed[seat]) {
        const tick = document.createElement("span");
        tick.className = "tick";
        tick.setAttribute("aria-hidden", "true");
        tick.textContent = "✓";
        td.append(tick, hidden(gettext("contract laid down,") + " "));
      }
      if (d.went_out === seat) td.append(hidden(gettext("went out,") + " "));
      td.append(number(d.penalties[seat]));
    });
  }
  if (!deals.length) {
    const row = body.insertRow();
    const td = row.insertCell();
    td.colSpan = view.players.length + 1;
    td.className = "muted";
    td.textContent = gettext("No deal has ended yet.");
  }
  const foot = t.createTFoot();
  const totals = [
    [gettext("Contracts"), (p) => number(p.climbed), (p) => counts.contracts(p.climbed)],
    [gettext("Penalty"), (p) => number(p.penalty), (p) => counts.penaltyPoints(p.penalty)],
  ];
  for (const [label, shown, spoken] of totals) {
    const row = foot.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    row.append(th);
    for (const p of view.players) {
      const td = row.insertCell();
      if (p.seat === view.you) td.className = "me";
      const visible = document.createElement("span");
      visible.setAttribute("aria-hidden", "true");
      visible.textContent = shown(p);
      td.append(visible, hidden(spoken(p)));
    }
  }
  root.replaceChildren(t);
  root.dataset.deals = String(deals.length);
}
