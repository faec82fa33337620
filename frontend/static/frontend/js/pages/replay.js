// The replay viewer: a finished game move by move, every hand face up, drawn by the table's
// own views. One read of GET /api/v1/replays/{id}; controllers/replay.js rebuilds each
// version from its events. Step with the buttons, ← →, a swipe or the slider; play at a
// speed; jump to a deal. The address carries the version shown (?v=123) to share a moment.
// Your own game carries the expert's review (its summary written by the server,
// frontend/review.py; its marks in words by views/marks.js): the marks sit on the slider's
// strip, ‹◆ ◆› (P, N) jump between them, and at a mark the note above the controls says what
// you did, what the expert would have done and why.
import * as api from "../api.js";
import { sortBySuit } from "../cards.js";
import { describeEvent } from "../controllers/animator.js";
import { ReplayStates, openEvent } from "../controllers/replay.js";
import * as counts from "../counts.js";
import { showMessage } from "../errors.js";
import { format, gettext, number } from "../i18n.js";
import { SPEED_MS, loadSettings, scrollBehavior } from "../settings.js";
import { renderHand } from "../views/hand.js";
import { renderLadder } from "../views/ladder.js";
import { markCost, markLine, markReason } from "../views/marks.js";
import { DealLog } from "../views/log.js";
import { contractLine, countHiddenMelds, renderMelds, renderPiles } from "../views/melds.js";
import { renderScores } from "../views/scores.js";
import { renderSeats, seatName } from "../views/seats.js";
import { gameTitle } from "../views/table.js";

const SWIPE_MIN_PX = 40;
const NOTHING = new Set();

const root = document.getElementById("replay");
const q = (s) => root.querySelector(s);
const els = {
  seats: q("[data-seats]"), melds: q("[data-melds]"), hand: q("[data-hand]"),
  stock: q("[data-stock]"), discard: q("[data-discard]"), stockCount: q("[data-stock-count]"),
  discardCount: q("[data-discard-count]"), discardTop: q("[data-discard-top]"),
  stockLabel: q("[data-stock-label]"), discardLabel: q("[data-discard-label]"),
  ladder: q("[data-ladder]"), legend: q("[data-ladder-legend]"), dealInfo: q("[data-deal-info]"),
  name: q("[data-me-name]"), contract: q("[data-me-contract]"), message: q("[data-message]"),
  log: q("[data-log]"), logLines: q("[data-log-lines]"), position: q("[data-position]"),
  positionText: q("[data-position-text]"), deal: q("[data-deal]"), speed: q("[data-speed]"),
  play: q("[data-play]"), scoresPanel: q("#scores"), scores: q("[data-scores]"),
  scoresToggle: q("[data-scores-toggle]"), help: q("[data-help]"),
  costliest: q("[data-costliest]"), markNote: q("[data-mark-note]"), markStrip: q("[data-mark-strip]"),
  dock: q("[data-dock]"),
  markBack: q('[data-mark-go="back"]'), markForward: q('[data-mark-go="forward"]'),
};
const ladderTexts = JSON.parse(document.getElementById("ladder-data").textContent);
const contracts = JSON.parse(document.getElementById("contracts-data").textContent);
const log = new DealLog({ box: els.log, lines: els.logLines, message: els.message });
// The table's speeds; "instant" plays at the fastest that can still be watched.
const settings = loadSettings();
els.speed.value = SPEED_MS[settings.speed] && settings.speed !== "instant" ? settings.speed : "fast";

let states = null;
let shown = -1;
let player = null; // the timer of "play"
let analysis = null; // the expert's review of your seat, when ready
let marks = [];

function render(v) {
  const view = states.at(v);
  shown = view.version;
  root.dataset.version = String(shown);
  els.dealInfo.textContent = format(gettext("Deal %(deal)s of 10"), { deal: view.deal }) + " · " + gameTitle(view);
  view.hands = view.hands.map((hand) => sortBySuit(hand));
  const left = states.leftBy(shown);
  renderSeats(els.seats, view, new Map(), NOTHING, left);
  renderPiles(els, view, { canDraw: () => false, below: view.pile_below?.at(-1) });
  els.stockLabel.textContent = `${gettext("Stock")}: ${counts.cards(view.stock_size)}`;
  els.discardLabel.textContent = `${gettext("Discard pile")}: ${counts.cards(view.discard_size)}`;
  renderMelds(els.melds, view, new Map());
  renderLadder(els.ladder, view, ladderTexts, els.legend);
  const mark = marks.find((m) => m.v === shown);
  renderHand(els.hand, view.hands[view.you], {
    selected: NOTHING, focusId: null, fresh: NOTHING, discardable: NOTHING, inComposer: NOTHING,
    hinted: mark && analysis.seat === view.you ? expertCards(mark) : null, phase: "wait",
  });
  for (const card of els.hand.querySelectorAll(".card")) {
    card.setAttribute("role", "listitem");
    card.removeAttribute("aria-selected");
    card.tabIndex = -1;
  }
  els.name.textContent = left.has(view.you) && !view.spectator ? gettext("You (left the game)") : seatName(view, view.you);
  els.contract.textContent = contractLine(view);
  root.classList.toggle("seat-turn", view.turn === view.you && view.phase !== "finished");
  renderLog(view, shown);
  els.position.value = String(shown);
  els.positionText.textContent = format(gettext("Move %(n)s of %(total)s"), { n: shown, total: states.last });
  els.position.setAttribute("aria-valuetext", els.positionText.textContent);
  els.deal.value = String(states.dealAt(shown));
  for (const b of root.querySelectorAll("[data-go]")) {
    const back = b.dataset.go.endsWith("back");
    b.disabled = back ? shown === 0 : shown === states.last;
  }
  if (!els.scoresPanel.hidden) renderScores(els.scores, view);
  renderMark(mark);
  history.replaceState(null, "", `?v=${shown}`);
}

let logShows = null; // [from, to]: the versions whose events the log holds

// The deal's moves so far, the latest also in the message line (read out as it changes).
// A step forward adds its own lines; any other move writes the log again (a deal's moves
// are some 150 lines, and each step wrote them all).
function renderLog(view, v) {
  const from = states.logStart(v);
  const forward = logShows && logShows[0] === from && logShows[1] === v - 1;
  if (!forward) els.logLines.replaceChildren();
  for (const event of forward ? states.events[v] : states.logAt(v)) {
    log.writeEvent(view, openEvent(event), { quiet: true });
  }
  logShows = [from, v];
  const latest = states.events[v].map((e) => describeEvent(view, openEvent(e))).filter(Boolean);
  els.message.classList.add("info");
  els.message.textContent = latest.join(" ");
}

// --- The expert's review ------------------------------------------------------------------

// The cards the expert would have played at a mark, highlighted in your hand.
function expertCards(mark) {
  const e = mark.expert;
  return new Set(e.type === "lay_down" ? e.melds.flat() : e.card ? [e.card] : []);
}

function renderMark(mark) {
  els.markNote.hidden = !mark;
  if (mark) {
    const n = marks.indexOf(mark) + 1;
    const title = document.createElement("strong");
    title.textContent = format(gettext("The expert's mark %(n)s of %(count)s"), { n, count: marks.length });
    els.markNote.replaceChildren(title, " ", markLine(mark), " ", markReason(mark), " ", markCost(mark));
  }
  els.markBack.disabled = !marks.some((m) => m.v < shown);
  els.markForward.disabled = !marks.some((m) => m.v > shown);
  for (const dot of els.markStrip.children) {
    dot.classList.toggle("current", dot.dataset.vs.split(" ").includes(String(shown)));
  }
}

// On a phone the controls, with the note, are fixed at the window's foot, over the page: the
// cards the note speaks of are scrolled up above them when the person goes to a mark (its
// buttons, the costliest, a link to it), not as the replay plays or the slider passes one.
function showExpertCards() {
  const cards = [...els.hand.querySelectorAll(".card.hinted")];
  if (!cards.length || getComputedStyle(els.dock).position !== "fixed") return;
  const lowest = Math.max(...cards.map((c) => c.getBoundingClientRect().bottom));
  const hidden = lowest - (els.dock.getBoundingClientRect().top - 8);
  if (hidden > 0) window.scrollBy({ top: hidden, behavior: scrollBehavior() });
}

// The review's marks on the slider's strip (its summary is in the page as it comes).
function showAnalysis(found) {
  if (found?.state !== "ready") return; // a watcher: nobody sees another person's review
  analysis = found;
  marks = found.marks;
  for (const b of [els.markBack, els.markForward]) b.hidden = !marks.length;
  drawMarks();
  new ResizeObserver(drawMarks).observe(els.markStrip);
}

// A diamond's box is its square's diagonal (8 px turned 45°, replay.css), and a pixel apart.
const DIAMOND_PX = 13;

// One diamond a mark, but marks closer on the strip than a diamond's width share one (at the
// first of them): a phone's slider has some 250 px for a game's 80 marks, which ran together
// into a bar. Each mark is still a stop of the mark buttons, and its diamond lights at it.
function drawMarks() {
  const width = els.markStrip.clientWidth;
  const at = (m) => m.v / Math.max(1, states.last);
  const dots = [];
  for (const m of marks) {
    const last = dots.at(-1);
    if (last && (at(m) - last.at) * width < DIAMOND_PX) last.vs.push(m.v);
    else dots.push({ at: at(m), vs: [m.v] });
  }
  els.markStrip.replaceChildren(...dots.map(({ at: x, vs }) => {
    const dot = document.createElement("i");
    dot.dataset.v = String(vs[0]);
    dot.dataset.vs = vs.join(" ");
    dot.style.left = `${100 * x}%`;
    dot.classList.toggle("current", vs.includes(shown));
    return dot;
  }));
}

function goToMark(mark) {
  if (!mark) return;
  go(mark.v);
  showExpertCards();
}
const nextMark = () => goToMark(marks.find((x) => x.v > shown));
const previousMark = () => goToMark(marks.findLast((x) => x.v < shown));

function go(v) {
  if (!states) return;
  const target = states.clamp(v);
  if (target !== shown) render(target);
  if (shown === states.last) pause();
}

const step = (delta) => go(shown + delta);
// The previous deal: this deal's start, or the one before when already there.
function dealBack() {
  const deal = states.dealAt(shown);
  const start = states.dealStarts[deal - 1];
  go(shown > start ? start : states.dealStarts[Math.max(0, deal - 2)]);
}
const dealForward = () => go(states.dealStarts[states.dealAt(shown)] ?? states.last);

function play() {
  if (shown === states.last) go(0);
  els.play.setAttribute("aria-pressed", "true");
  els.play.setAttribute("aria-label", gettext("Pause"));
  els.play.textContent = "❙❙";
  const tick = () => {
    step(1);
    if (player !== null) player = setTimeout(tick, SPEED_MS[els.speed.value] || SPEED_MS.normal);
  };
  player = setTimeout(tick, SPEED_MS[els.speed.value] || SPEED_MS.normal);
}

function pause() {
  clearTimeout(player);
  player = null;
  els.play.setAttribute("aria-pressed", "false");
  els.play.setAttribute("aria-label", gettext("Play"));
  els.play.textContent = "▶";
}

const togglePlay = () => (player === null ? play() : pause());

function toggleScores(open = els.scoresPanel.hidden) {
  els.scoresPanel.hidden = !open;
  els.scoresToggle.setAttribute("aria-expanded", String(open));
  if (open) renderScores(els.scores, states.at(shown));
  else els.scoresToggle.focus({ preventScroll: true });
}

// --- Input: buttons, keys, the slider, swipes ----------------------------------------------

const moves = { back: () => step(-1), forward: () => step(1), "deal-back": dealBack, "deal-forward": dealForward };
for (const b of root.querySelectorAll("[data-go]")) b.addEventListener("click", () => moves[b.dataset.go]());
els.play.addEventListener("click", togglePlay);
els.markBack.addEventListener("click", previousMark);
els.markForward.addEventListener("click", nextMark);
els.costliest?.addEventListener("click", () => { if (analysis) goToMark(analysis.marks[analysis.costliest]); });
els.position.addEventListener("input", () => go(els.position.value));
els.deal.addEventListener("change", () => go(states.dealStarts[Number(els.deal.value) - 1]));
els.scoresToggle.addEventListener("click", () => toggleScores());
q("[data-scores-close]").addEventListener("click", () => toggleScores(false));
q("[data-help-open]").addEventListener("click", () => els.help.showModal());
q("[data-help-close]").addEventListener("click", () => els.help.close());
els.help.addEventListener("click", (e) => { if (e.target === els.help) els.help.close(); });

const KEYS = {
  ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => go(0), End: () => go(states.last),
  PageUp: dealBack, PageDown: dealForward, k: togglePlay, K: togglePlay,
  c: () => toggleScores(), C: () => toggleScores(), "?": () => els.help.showModal(),
  n: nextMark, N: nextMark, p: previousMark, P: previousMark,
};
document.addEventListener("keydown", (e) => {
  if (!states || e.altKey || e.ctrlKey || e.metaKey || els.help.open) return;
  if (e.key === "Escape" && !els.scoresPanel.hidden) { toggleScores(false); return; }
  // The slider and the lists move with the arrows themselves.
  if (e.target.closest?.("input, select, textarea")) return;
  const action = KEYS[e.key];
  if (!action) return;
  e.preventDefault();
  action();
});

// A swipe across the table: left for the next move, right for the one before.
let swipe = null;
root.addEventListener("pointerdown", (e) => {
  if (e.pointerType === "mouse" || e.target.closest("button, input, select, a, .overlay-panel")) return;
  swipe = { x: e.clientX, y: e.clientY, id: e.pointerId };
});
root.addEventListener("pointerup", (e) => {
  if (!swipe || e.pointerId !== swipe.id) return;
  const dx = e.clientX - swipe.x, dy = e.clientY - swipe.y;
  swipe = null;
  if (Math.abs(dx) >= SWIPE_MIN_PX && Math.abs(dx) > 1.5 * Math.abs(dy)) step(dx < 0 ? 1 : -1);
});
root.addEventListener("pointercancel", () => { swipe = null; });

// --- Loading ---------------------------------------------------------------------------

async function start() {
  let replay;
  try {
    replay = await api.replay(root.dataset.gameId);
  } catch (error) {
    root.removeAttribute("data-loading");
    showMessage(els.message, error);
    return;
  }
  states = new ReplayStates(replay, { contracts });
  els.position.max = String(states.last);
  els.deal.replaceChildren(...states.dealStarts.map((_, i) => new Option(number(i + 1), String(i + 1))));
  showAnalysis(replay.analysis);
  root.removeAttribute("data-loading");
  render(states.clamp(new URLSearchParams(location.search).get("v")));
  showExpertCards();
}

// The game fills the window below the site's header, as the table does (its CSS measures).
const header = document.querySelector("header.site");
new ResizeObserver(() => document.documentElement.style.setProperty("--chrome", `${header.offsetHeight}px`)).observe(header);
const topbar = q(".topbar");
new ResizeObserver(() => document.documentElement.style.setProperty("--topbar-bottom", `${topbar.offsetTop + topbar.offsetHeight}px`)).observe(topbar);
// The table's view of the melds scrolls inside itself on a phone: the hidden ones are counted.
countHiddenMelds(q(".centre"), els.melds, q("[data-melds-more]"));
new ResizeObserver(() => document.documentElement.style.setProperty("--controls-h", `${els.dock.offsetHeight}px`)).observe(els.dock);
window.addEventListener("pagehide", pause);
start();
