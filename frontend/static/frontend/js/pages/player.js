// A player's public page (/players/<id>/): name, streaks, a line of contracts per daily over
// time, how often they lay down each rung against everyone, and their dailies (each day's
// page, board and, once the day is over, the game's replay). Charts are inline SVG built here.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { dayHref, replayHref } from "../days.js";
import { showMessage } from "../errors.js";
import { date, format, gettext, ngettext, number } from "../i18n.js";

const root = document.getElementById("player-page");
const $ = (selector) => root.querySelector(selector);
const SVG = "http://www.w3.org/2000/svg";
const DAYS_SHOWN = 100; // the API's most
const TOP_CONTRACTS = 10;
const dealsText = (n) => format(ngettext("%(n)s deal", "%(n)s deals", n), { n });

function svg(tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

// A chart is drawn as wide as its box (320-640 units), so its words keep their size on a phone.
function widthFor(container) {
  return Math.round(Math.max(320, Math.min(640, container.clientWidth || 640)));
}

function chart(width, height, label) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": label });
}

// Contracts completed in each daily, oldest first: a line over the 0-10 scale.
function contractsChart(days, width) {
  const height = 200, left = 28, right = 10, top = 10, bottom = 26;
  const oldestFirst = [...days].reverse();
  const mean = oldestFirst.reduce((sum, d) => sum + d.contracts, 0) / Math.max(1, oldestFirst.length);
  const label = format(gettext("Contracts completed in each of the latest %(n)s dailies, from %(first)s to %(last)s; %(mean)s on average."),
    { n: oldestFirst.length, first: date(oldestFirst[0].date), last: date(oldestFirst.at(-1).date), mean: number(Math.round(mean * 10) / 10) });
  const box = chart(width, height, label);
  const x = (i) => left + (oldestFirst.length === 1 ? (width - left - right) / 2 : (i * (width - left - right)) / (oldestFirst.length - 1));
  const y = (n) => top + ((TOP_CONTRACTS - n) * (height - top - bottom)) / TOP_CONTRACTS;
  for (const n of [0, 5, 10]) {
    box.append(svg("line", { x1: left, x2: width - right, y1: y(n), y2: y(n), class: n ? "grid" : "axis" }));
    box.append(svg("text", { x: left - 6, y: y(n) + 4, "text-anchor": "end" }, number(n)));
  }
  box.append(svg("text", { x: left, y: height - 6 }, date(oldestFirst[0].date)));
  if (oldestFirst.length > 1) box.append(svg("text", { x: width - right, y: height - 6, "text-anchor": "end" }, date(oldestFirst.at(-1).date)));
  const points = oldestFirst.map((d, i) => `${x(i).toFixed(1)},${y(d.contracts).toFixed(1)}`);
  box.append(svg("polyline", { points: points.join(" "), class: "line" }));
  oldestFirst.forEach((d, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(d.contracts), r: 3.5, class: "dot" });
    dot.append(svg("title", {}, `${date(d.date)}: ${counts.contracts(d.contracts)}`));
    box.append(dot);
  });
  return box;
}

// Per rung, two bars: this player's lay-down rate and everyone's (none: no bar, a dash).
function rungsChart(rungs, width) {
  const height = 210, left = 36, right = 6, top = 10, bottom = 34;
  const slot = (width - left - right) / rungs.length;
  const bar = slot * 0.34;
  const y = (rate) => top + (1 - rate) * (height - top - bottom);
  const percent = (rate) => (rate === null ? "—" : `${number(Math.round(rate * 100))} %`);
  const label = rungs.map((r) => format(gettext("Rung %(rung)s: %(mine)s of %(deals)s (everyone %(everyone)s)"),
    { rung: r.rung, mine: percent(r.rate), deals: dealsText(r.deals), everyone: percent(r.everyone_rate) })).join("; ");
  const box = chart(width, height, label);
  for (const rate of [0, 0.5, 1]) {
    box.append(svg("line", { x1: left, x2: width - right, y1: y(rate), y2: y(rate), class: rate ? "grid" : "axis" }));
    box.append(svg("text", { x: left - 6, y: y(rate) + 4, "text-anchor": "end" }, `${number(rate * 100)} %`));
  }
  rungs.forEach((r, i) => {
    const middle = left + slot * i + slot / 2;
    for (const [rate, kind, dx] of [[r.rate, "bar-player", -bar], [r.everyone_rate, "bar-everyone", 0]]) {
      if (rate === null) continue;
      const rect = svg("rect", { x: middle + dx, y: y(rate), width: bar, height: Math.max(1, y(0) - y(rate)), class: kind });
      rect.append(svg("title", {}, kind === "bar-player"
        ? format(gettext("Rung %(rung)s: %(rate)s of %(deals)s"), { rung: r.rung, rate: percent(rate), deals: dealsText(r.deals) })
        : format(gettext("Rung %(rung)s, everyone: %(rate)s"), { rung: r.rung, rate: percent(rate) })));
      box.append(rect);
    }
    box.append(svg("text", { x: middle, y: height - 18, "text-anchor": "middle" }, number(r.rung)));
  });
  box.append(svg("text", { x: left + (width - left - right) / 2, y: height - 3, "text-anchor": "middle" }, gettext("rung")));
  return box;
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function dayRow(day) {
  const tr = document.createElement("tr");
  const cells = [
    link(dayHref(day.date), date(day.date)),
    number(day.contracts),
    number(day.penalty),
    link(`/leaderboard/?day=${day.date}`, number(day.rank)),
    day.game ? link(replayHref(day.game), gettext("Watch")) : "",
  ];
  for (const content of cells) {
    const td = document.createElement("td");
    td.append(content);
    tr.append(td);
  }
  return tr;
}

async function load() {
  let page;
  try {
    page = await api.playerHistory(root.dataset.playerId, DAYS_SHOWN);
  } catch (error) {
    $("[data-player-state]").textContent = gettext("This player's page could not be loaded.");
    showMessage($("[data-status]"), error);
    return;
  }
  const name = page.player.name;
  $("[data-player-name]").textContent = name;
  document.title = `${name} · ${document.title.split(" · ").at(-1)}`;
  $("[data-player-state]").textContent = "";
  $("[data-player-state]").hidden = true;
  $('[data-stat="dailies"]').textContent = number(page.dailies);
  $('[data-stat="contracts"]').textContent = number(page.contracts);
  $('[data-stat="current_streak"]').textContent = counts.days(page.current_streak);
  $('[data-stat="longest_streak"]').textContent = counts.days(page.longest_streak);
  $("[data-key-player]").textContent = name;
  const days = page.days || [];
  if (days.length) {
    $("[data-contracts-note]").textContent = format(gettext("The latest %(n)s dailies, oldest on the left."), { n: days.length });
  }
  $("[data-player-days]").replaceChildren(...days.map(dayRow));
  $("[data-player-empty]").hidden = days.length > 0;
  for (const box of root.querySelectorAll("[data-player-box]")) {
    box.hidden = !days.length && !box.querySelector("[data-player-days], .player-stats");
  }
  if (days.length) { // drawn once their boxes show, to know their width
    const line = $("[data-contracts-chart]"), bars = $("[data-rungs-chart]");
    line.replaceChildren(contractsChart(days, widthFor(line)));
    bars.replaceChildren(rungsChart(page.rungs, widthFor(bars)));
  }
}

load().finally(() => { root.dataset.loaded = ""; });
