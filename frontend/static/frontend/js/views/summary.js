// Between deals: who went out, penalties, who climbed. At the end: places, contracts,
// penalties, and for the daily a spoiler-free share card (text and image).
import * as counts from "../counts.js";
import { date, format, gettext, number } from "../i18n.js";
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

export function myResult(view) {
  const result = view.result;
  if (Array.isArray(result)) return result.find((r) => r.seat === view.you) || null;
  if (result && typeof result === "object") return result;
  const me = view.players[view.you];
  return me ? { contracts: me.climbed, penalty: me.penalty, place: null } : null;
}

// One symbol per deal: 🟨 went out, 🟩 laid the contract down, ⬜ neither.
export function dealSymbols(view) {
  return (view.deals || []).map((d) => (d.went_out === view.you ? "🟨" : d.climbed[view.you] ? "🟩" : "⬜")).join("");
}

export function shareText(view, day) {
  const r = myResult(view) || {};
  const lines = [
    format(gettext("Ladder Rummy daily %(date)s"), { date: day ? date(day) : "" }),
    format(gettext("🪜 %(contracts)s/10 contracts · %(points)s · place %(place)s"),
      { contracts: r.contracts ?? 0, points: counts.penaltyPoints(r.penalty ?? 0), place: r.place ?? "?" }),
    dealSymbols(view),
  ];
  return lines.join("\n");
}

const SYMBOL_COLOURS = { "🟨": "#ffd166", "🟩": "#57c27a", "⬜": "#c9d6cf" };

// The share card as a picture: the lines of text, and one drawn square per deal (not emoji,
// which depend on the fonts of the machine drawing them).
export function shareImage(text) {
  const canvas = document.createElement("canvas");
  canvas.width = 600;
  canvas.height = 315;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#0d3b2e";
  ctx.fillRect(0, 0, 600, 315);
  ctx.fillStyle = "#f4e9c8";
  ctx.textBaseline = "top";
  const [title, summary, symbols = ""] = text.split("\n");
  const fit = (line, px, weight = "") => {
    let size = px;
    do { ctx.font = `${weight} ${size}px system-ui, sans-serif`; size -= 1; } while (ctx.measureText(line).width > 536 && size > 10);
  };
  fit(title, 30, "bold");
  ctx.fillText(title, 32, 36);
  const plain = summary.replace(/^\S+\s/u, "");
  fit(plain, 24);
  ctx.fillText(plain, 32, 100);
  [...symbols].forEach((symbol, i) => {
    ctx.fillStyle = SYMBOL_COLOURS[symbol] || "#c9d6cf";
    ctx.fillRect(32 + i * 52, 170, 44, 44);
  });
  ctx.fillStyle = "#c9d6cf";
  fit(gettext("Ladder Rummy"), 18);
  ctx.fillText(gettext("Ladder Rummy"), 32, 260);
  return canvas;
}

export function shareCard(view, day) {
  const box = document.createElement("section");
  box.className = "share";
  const h = document.createElement("h3");
  h.textContent = gettext("Share your daily");
  const text = shareText(view, day);
  const pre = document.createElement("textarea");
  pre.readOnly = true;
  pre.rows = 3;
  pre.value = text;
  pre.setAttribute("aria-label", gettext("Share text"));
  pre.dataset.shareText = "";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "btn";
  copy.textContent = gettext("Copy text");
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); copy.textContent = gettext("Copied"); }
    catch { pre.select(); }
  });
  const link = document.createElement("a");
  link.className = "btn";
  link.textContent = gettext("Download image");
  link.download = "ladder-rummy-daily.png";
  const canvas = shareImage(text);
  link.href = canvas.toDataURL("image/png");
  const img = document.createElement("img");
  img.src = link.href;
  img.alt = text;
  img.className = "share-image";
  box.append(h, pre, copy, link, img);
  return box;
}
