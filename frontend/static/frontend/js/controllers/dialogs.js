// The table's dialogs: the summary between deals and the result at the end (with the daily's
// share card). Each takes the table's elements and the view it speaks of.
import * as api from "../api.js";
import * as counts from "../counts.js";
import { showMessage } from "../errors.js";
import { format, gettext } from "../i18n.js";
import { dealSymbols, fillShareBox, shareBox, shareLines } from "../daily/sharecard.js";
import { dealSummary, resultTable } from "../views/summary.js";

// An open deal summary is kept in this browser until the player goes on: a reload shows it
// again (the deal's log, read on load, starts at the next deal's start).
const summaryKey = (gameId) => `ladder.summary.${gameId}`;

// At a game with a timer (controllers/game.js): `left()` the whole seconds of the break
// between deals (null: none runs), `paused()` whether every person is away (no turn's time
// runs until one is back), `ready()` tells the server this person has closed the
// results, so the break can end before its time.
let breakClock = null;
export function useBreakClock(clock) {
  breakClock = clock;
}

const mmss = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

// "Next deal in 0:12", from the server's `break_until`; with no break running (it ran out,
// or everyone closed the results) the next deal's turns are timed, and the line says so,
// unless the table is paused.
// Returns a function that stops its ticking.
function breakCountdown(els) {
  if (!breakClock) return () => {};
  const line = document.createElement("p");
  line.className = "summary-lead break-clock";
  line.dataset.breakClock = "";
  line.setAttribute("role", "timer");
  const draw = () => { // written only when it changes, as the turn clock (views/timer.js)
    const left = breakClock.left();
    const text = left > 0 ? format(gettext("Next deal in %(time)s"), { time: mmss(left) })
      : breakClock.paused() ? gettext("The next deal has started. Everyone is away, so its turns wait until someone is back.")
      : gettext("The next deal has started: its turns are timed.");
    if (line.textContent !== text) line.textContent = text;
  };
  draw();
  els.summaryBody.prepend(line);
  const ticker = setInterval(draw, 100); // as the turn clock (game.js)
  return () => clearInterval(ticker);
}

// On load: the results the player had open when the page went (kept in this browser), or
// `missed` ({view, deal}: a later deal's that ended while the page was away), the later deal's.
export function reopenDealSummary(els, gameId, missed = null) {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(summaryKey(gameId)) || "null"); } catch { /* private mode */ }
  if (els.summary.open) { forget(gameId); return null; } // the game is over: its result is shown
  const shown = missed && !(saved && saved.deal.deal >= missed.deal.deal) ? missed : saved;
  return shown ? showDealSummary(els, shown.view, shown.deal) : null;
}

function forget(gameId) {
  try { localStorage.removeItem(summaryKey(gameId)); } catch { /* private mode */ }
}

// The view a deal's results speak of, from a later one (the next deal's): each player on the
// rung they played it at, with the contracts done by its end, their cards left at its end
// unknown (the view holds the new hands).
export function viewAtDealEnd(view, deal) {
  return { ...view, hand: null, players: view.players.map((p, seat) => ({
    ...p, rung: p.rung - (deal.climbed[seat] ? 1 : 0), hand_size: null,
    climbed: p.climbed - (p.laid_down ? 1 : 0) })) }; // a contract laid down since is not yet
}

// "Deal n is over": resolves when the player goes on (the button, or Escape).
export function showDealSummary(els, view, deal) {
  try { localStorage.setItem(summaryKey(view.id), JSON.stringify({ view, deal })); } catch { /* private mode */ }
  const last = deal.deal === 10;
  els.summaryTitle.textContent = format(gettext("Deal %(deal)s is over"), { deal: deal.deal });
  els.summaryBody.replaceChildren(dealSummary(view, deal));
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn primary";
  button.dataset.summaryContinue = "";
  button.textContent = last ? gettext("See the result") : gettext("Next deal");
  els.summaryActions.replaceChildren(button);
  const stopCountdown = last ? () => {} : breakCountdown(els);
  return new Promise((resolve) => {
    const backdrop = (e) => { if (e.target === els.summary) done(); };
    const cancel = (e) => { e.preventDefault(); done(); };
    const done = () => {
      els.summary.removeEventListener("click", backdrop);
      els.summary.removeEventListener("cancel", cancel);
      els.summary.close();
      forget(view.id);
      stopCountdown();
      // Read: the break need not wait for this person (refused or lost, it ends on time).
      if (breakClock && !last) breakClock.ready().catch(() => {});
      resolve();
    };
    button.addEventListener("click", done, { once: true });
    els.summary.addEventListener("cancel", cancel); // Escape goes on, as the button does
    els.summary.addEventListener("click", backdrop); // so does a click outside the box
    els.summary.showModal();
    button.focus({ preventScroll: true }); // the dialog stays at its title, as the result's
    els.summary.scrollTop = 0;
  });
}

// The daily's share card, filled once the server has ranked the attempt. Made once a page:
// the result may be shown twice (after the last move's animation, and on load).
const shareCards = new Map();
function dailyShareBox(view) {
  if (shareCards.has(view.id)) return shareCards.get(view.id);
  const box = shareBox();
  shareCards.set(view.id, box);
  box.hidden = true;
  api.dailyOf(view.daily).then((daily) => {
    const result = daily.attempt.result;
    if (!result) return;
    box.hidden = false;
    return fillShareBox(box, shareLines(daily, result, dealSymbols(view)));
  }).catch(() => {}); // no card then: the daily page has it too
  return box;
}

// What the result offers next instead of a new game against the computer players (a table
// for friends: controllers/together.js): `make(view, els)` returns the elements.
let resultActions = null;
export function useResultActions(make) {
  resultActions = make;
}

function replayLater() {
  const p = document.createElement("p");
  p.className = "muted small";
  p.textContent = gettext("The replay, with the expert's review of your decisions, opens when the day has ended (UTC): under Your games.");
  return p;
}

// "The game is over": places, contracts and penalties; then where to go next.
export function showResult(els, view) {
  els.summaryTitle.textContent = gettext("The game is over");
  const body = [resultTable(view, view.result)];
  const mine = Array.isArray(view.result) ? view.result.find((r) => r.seat === view.you) : view.result;
  if (mine?.place) {
    const p = document.createElement("p");
    p.className = "summary-lead";
    p.textContent = format(gettext("You finished in place %(place)s with %(contracts)s and %(points)s."),
      { place: mine.place, contracts: counts.contracts(mine.contracts), points: counts.penaltyPoints(mine.penalty) });
    body.unshift(p);
  }
  if (view.mode === "daily") body.push(dailyShareBox(view), replayLater());
  els.summaryBody.replaceChildren(...body);
  // "Play again" starts a practice game at once: at this game's level, or after the daily
  // (one ranked attempt a day) at the daily's.
  const again = document.createElement("button");
  again.type = "button";
  again.className = "btn primary";
  again.textContent = view.mode === "daily" ? gettext("Practise at this level") : gettext("Play again");
  again.addEventListener("click", async () => {
    again.disabled = true;
    try {
      const created = await api.startGame("practice", view.level || "normal");
      location.assign(`/play/${encodeURIComponent((created.game || created).id)}/`);
    } catch (error) {
      again.disabled = false;
      showMessage(els.message, error);
    }
  });
  const board = document.createElement("a");
  board.className = "btn";
  board.href = "/leaderboard/";
  board.textContent = gettext("Leaderboard");
  // The replay, with the expert's review of your decisions (a daily's, once its day is over).
  const replay = document.createElement("a");
  replay.className = "btn";
  replay.href = `/replay/${encodeURIComponent(view.id)}/`;
  replay.textContent = gettext("Replay with the expert's review");
  let links = view.mode === "daily" ? [again, board] : [again, replay, board];
  if (resultActions) links = [...resultActions(view, els), replay];  // a table's game
  const close = document.createElement("button");
  close.type = "button";
  close.className = "btn";
  close.textContent = gettext("Look at the table");
  close.addEventListener("click", () => els.summary.close());
  els.summaryActions.replaceChildren(...links, close);
  const backdrop = (e) => {
    if (e.target !== els.summary) return;
    els.summary.removeEventListener("click", backdrop);
    els.summary.close();
  };
  els.summary.addEventListener("click", backdrop);
  if (!els.summary.open) els.summary.showModal();
  // On the first action, the dialog still at its title: on a short window, the focus
  // scrolled the title out of sight (the actions stay in sight at its foot: ladder.css).
  links[0].focus({ preventScroll: true });
  els.summary.scrollTop = 0;
}
