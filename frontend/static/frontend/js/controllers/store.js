// The table's one store: all of the game's state in the page, and what follows from it. No
// DOM here; game.js wires the store to the views and the controllers, which read it and
// change it, then render.
//
// Its shape:
//   the server's game
//     view          the latest GameView (the one source of truth for the rules: `legal`)
//     version       view.version (-1 before the first read)
//     heardVersion  the highest version a socket frame announced
//     shownVersion  how far this browser has shown the game (localStorage, across reloads,
//                   so a reload never plays again what the player already watched)
//   what is on screen
//     shown         the view on screen: a step behind `view` while news plays
//     pileBelow     the discard pile's cards under its top, oldest first (from the events)
//     busy          an action is on its way, or news is playing: no new move
//     syncWanted    news arrived while busy: read the game once free
//   the hand, as the player handles it
//     order         the hand's card ids in the player's order (localStorage, per game)
//     sortBy        "suit", "rank" or null: the chosen sort (localStorage, every game)
//     selected      Set of selected card ids
//     fresh         Set of the ids just drawn or taken (highlighted)
//     focusId       the card that has (or gets) the keyboard focus
//     hinted        what the hint points at: {cards: Set} or {pile: "stock"|"discard"}, or null
//   a table's turn timer (docs/api.md, "Turn timers, away and back")
//     timer         {seat, endsAt, seconds, version}: the turn running out at `endsAt` (on
//                   performance.now()'s clock: the server's deadline through the measured
//                   offset of its clock, never this computer's date), or null (no timer, a
//                   bot's turn, the game over, a paused table)
//     breakUntil    the end of the break between deals (the server's ISO instant), or null
//     clockVersion  the version the timer and the break were told at: the newest the server
//                   said, by a read or an answer as it arrives (before its moves play: the
//                   results show in that playback, and count the break down) or by a frame;
//                   at one version, the one heard last
//     away          Set of the seats that are away (the view's players[].away, then frames)
//
// Every way news arrives goes through `sync`: the page loading, a frame on the game's socket,
// a 409 from another tab's move, each opening of the socket. The action answer goes through
// `accept`.
import * as api from "../api.js";
import { eventType } from "./animator.js";
import * as handOrder from "./handorder.js";

const SORT_KEY = "ladder.sort";

// The server's clock (docs/design.md, "The page's state: the store and sync"): its offset
// from this page's own, performance.timeOrigin + performance.now() (which the computer's date
// changing does not move), measured from a GameView's `server_time` at the midpoint of the
// read's round trip. The sample of the shortest round trip is kept: its error is at most half
// of that.
const serverClock = { offset: null, roundTrip: Infinity };

export function measureClock(serverTime, sentAt, gotAt) {
  if (!serverTime || gotAt - sentAt >= serverClock.roundTrip) return;
  serverClock.roundTrip = gotAt - sentAt;
  serverClock.offset = Date.parse(serverTime) - (performance.timeOrigin + (sentAt + gotAt) / 2);
}

// An instant of the server's clock (ISO 8601) on performance.now()'s clock; null before the
// first measure.
function onPageClock(iso) {
  if (!iso || serverClock.offset === null) return null;
  return Date.parse(iso) - serverClock.offset - performance.timeOrigin;
}

// The turn's end is the server's deadline itself, so a view accepted after the playback and
// a frame heard before it agree; only before the first measure, the rounded seconds left.
function runsOut(seat, deadline, secondsLeft, seconds, version) {
  const endsAt = onPageClock(deadline) ?? performance.now() + secondsLeft * 1000;
  return { seat, endsAt, seconds, version };
}

const wholeSecondsTo = (at, now) => Math.max(0, Math.ceil((at - now) / 1000));

const NOTHING_LEGAL = { draw: [], may_lay_down: false, lay_off: [], discard: [] };

export class GameStore {
  constructor(gameId) {
    this.gameId = gameId;
    this.view = null;
    this.heardVersion = -1;
    this.shownKey = `ladder.shown.${gameId}`;
    this.shown = null;
    this.pileBelow = [];
    this.busy = false;
    this.syncWanted = false;
    this.order = handOrder.loadOrder(gameId);
    this.sortBy = (() => { try { return localStorage.getItem(SORT_KEY); } catch { return null; } })();
    this.selected = new Set();
    this.fresh = new Set();
    this.focusId = null;
    this.hinted = null;
    this.timer = null;
    this.breakUntil = null;
    this.clockVersion = -1;
    this.away = new Set();
    this.timedOutMe = false; // a `timed_out` frame for this seat, not yet told (game.js sync)
    this.renamed = false; // someone at the game took a new name: draw the game again (game.js)
  }

  get version() {
    return this.view?.version ?? -1;
  }

  // The version this browser has shown to its end (a deal summary closed, a move drawn).
  get shownVersion() {
    try { return Number(localStorage.getItem(this.shownKey) || -1); } catch { return -1; }
  }

  markShown(version) {
    if (version <= this.shownVersion) return;
    try { localStorage.setItem(this.shownKey, String(version)); } catch { /* private mode */ }
  }

  accept(view) {
    this.view = view;
    if (view.version < this.clockVersion) return; // a frame told of a later turn
    this.hearAway(view);
    // The same version heard as it arrived, or a frame since (the break ended early): kept.
    if (view.version > this.clockVersion) this.hearClock(view);
  }

  // The turn's timer and the break between deals as a GameView tells them (a read or an
  // answer, as it arrives), unless the server has said something later already.
  hearClock(view) {
    this.tellClock(view.version, view.turn_seconds_left == null ? null
      : runsOut(view.turn, view.turn_deadline, view.turn_seconds_left, view.turn_seconds, view.version),
    view.break_until);
  }

  // The timer and the break the server told at `version`: taken unless it has said something
  // later already (frames may come out of order: the worker's by another road than the
  // server's own); whether they were.
  tellClock(version, timer, breakUntil) {
    if (version < this.clockVersion) return false;
    this.clockVersion = version;
    this.timer = timer;
    this.breakUntil = breakUntil ?? null;
    return true;
  }

  // Who is away, as `view` says (the answer to "I'm back" too: its moves come through sync).
  hearAway(view) {
    this.away = new Set(view.players.filter((p) => p.away).map((p) => p.seat));
  }

  // A socket frame that is news but not a move (a turn's timer started, a seat ran out of
  // time, went away or came back): true when it was one, for the page to draw it.
  hearNotice(message) {
    const { t, v, data } = message || {};
    if (t === "turn_timer") {
      // One older than the clock known is an earlier turn's, over already.
      const timer = runsOut(data.seat, data.deadline, data.seconds_left, data.seconds, v);
      if (!this.tellClock(v, timer, data.break_until)) return false;
    } else if (t === "timed_out") {
      // The bot's moves for the seat follow, and the next turn's timer after them; a late one
      // must not clear a later turn's timer, which no frame would bring back.
      if (v >= this.clockVersion) this.timer = null;
      // The moves that follow are the computer's for this player, not another tab's: the
      // page says so even when the moves themselves are not played on it (a missed deal).
      if (this.view && data.seat === this.view.you) this.timedOutMe = true;
    }
    else if (t === "away") data.away ? this.away.add(data.seat) : this.away.delete(data.seat);
    else return false;
    return true;
  }

  // Whole seconds until the turn runs out, or null with no timer running.
  secondsLeft(now = performance.now()) {
    return this.timer ? wholeSecondsTo(this.timer.endsAt, now) : null;
  }

  // Whole seconds until the break between deals ends, or null with no break running.
  breakLeft(now = performance.now()) {
    const endsAt = onPageClock(this.breakUntil); // measured by then, if not when it was told
    return endsAt === null ? null : wholeSecondsTo(endsAt, now);
  }

  // Every person at the game is away, so the server stopped its clock until one is back.
  get paused() {
    const v = this.view;
    return Boolean(v && v.turn_seconds && v.status === "active" && !this.timer
      && v.players.filter((p) => !p.bot).every((p) => this.away.has(p.seat)));
  }

  get awayMe() {
    return this.view !== null && this.away.has(this.view.you);
  }

  // The server's game and its current deal's log, read together. Returns
  // {view, log, before, news, quietThrough, missedDeal}: `news` are the events after `before` to show
  // one by one (those up to `quietThrough` were shown already and pass without a pause), or
  // none when they do not follow on from it: then the view is shown as it is, and the log
  // rebuilt from `log.events`. `before` is the store's own view, or on a first load the view
  // as the player last acted in it (`log.before`), so a page opened mid-turn still shows
  // the computer players' moves it has not shown yet.
  async sync() {
    const read = () => {
      const sentAt = performance.now();
      return Promise.all([
        api.game(this.gameId).then((v) => { measureClock(v.server_time, sentAt, performance.now()); return v; }),
        api.dealLog(this.gameId).catch(() => null)]);
    };
    let [view, log] = await read();
    // A move landed between the two reads: read both again, or the page would show the new
    // version over the older log, and the move's frame (not beyond that version) never fix it.
    for (let again = 0; log && log.version !== view.version && again < 3; again++) [view, log] = await read();
    this.hearClock(view); // the results its news may end on count the break down
    const events = log && log.version === view.version ? log.events : [];
    let before = this.view;
    if (!before && log && view.phase !== "finished") before = log.before;
    // The moves since `before` are told with the people's names as the server has them now
    // (one may have taken a new name since).
    if (before) before = { ...before, players: before.players.map((p) => ({ ...p, name: view.players[p.seat]?.name ?? p.name })) };
    const from = before ? before.version : view.version;
    const quietThrough = Math.max(from, this.shownVersion);
    let news = events.filter((e) => e.v > from);
    // The events must follow on from `before`: the first is the next action's, in the same
    // deal (the log starts at a deal's start, so a deal's last moves may be missing).
    const follows = news.length && news[0].v === from + 1 && eventType(news[0]) !== "deal_started";
    // A table's page opening after a deal ended unseen and its break between deals is over
    // (the person was away, or came back by the link) shows the deal being played now, not
    // that deal's end and results: the break was the time to read them ("Scores so far").
    const stale = !this.view && view.turn_seconds && !view.break_until
      && news.some((e) => eventType(e) === "deal_ended" && e.v > quietThrough);
    if (!follows || stale || quietThrough >= view.version) { before = null; news = []; }
    // A deal that ended unseen by this browser (it had shown the game before the deal's last
    // moves, and nothing here plays its end: the log starts at the next deal's start, or at
    // the person's last move, elsewhere, but not where this page stands): that deal's results,
    // for the page to show once. Not once the person played on in the next deal (elsewhere:
    // `seen`), nor where `stale` says the break to read them is over.
    const opening = events.findLast((e) => eventType(e) === "deal_started")?.v ?? null;
    const playsEnd = news.some((e) => eventType(e) === "deal_ended" && e.v > quietThrough);
    const missedDeal = opening !== null && !playsEnd && (!this.view || this.view.deal < view.deal)
      && this.shownVersion >= 0 && this.shownVersion < opening && log.seen <= opening
      && view.deals.length && view.phase !== "finished"
      && !(view.turn_seconds && !view.break_until) ? view.deals.at(-1) : null;
    return { view, log, before, news, quietThrough, missedDeal };
  }

  // --- What is legal now (the server's `legal`, only while the player may move) -----------

  get myTurn() {
    const v = this.view;
    return !this.busy && v && this.shown === v && v.turn === v.you && v.phase !== "finished";
  }

  legal() {
    return this.myTurn ? this.view.legal || {} : NOTHING_LEGAL;
  }

  canDraw(from) {
    return (this.legal().draw || []).includes(from);
  }

  // Meld -> the ends card `cardId` may be laid off at.
  targetsFor(cardId) {
    const targets = new Map();
    for (const o of this.legal().lay_off || []) {
      if (o.card !== cardId) continue;
      targets.set(o.meld, [...(targets.get(o.meld) || []), o.end]);
    }
    return targets;
  }

  // The engine's legal lay-downs from the hand (GameView.legal.lay_downs), best first.
  layDowns() {
    return this.legal().lay_downs || [];
  }

  // The best lay-down made of `cards` only (the selection, or the whole hand), or null.
  layDownWithin(cards) {
    const ids = new Set(cards.map((c) => c.id));
    return this.layDowns().find((l) => l.melds.every((m) => m.every((id) => ids.has(id)))) ?? null;
  }

  // --- The hand on screen, in the player's order (controllers/handorder.js) ---------------

  byId() {
    return new Map(this.shown.hand.map((c) => [c.id, c]));
  }

  handCards() {
    const byId = this.byId();
    this.order = handOrder.arrange(this.order, this.shown.hand, this.sortBy);
    return this.order.map((id) => byId.get(id));
  }

  saveOrder() {
    handOrder.saveOrder(this.gameId, this.order);
  }

  // The chosen sort is kept in this browser and applied to each new deal's hand.
  sortHand(by) {
    this.order = handOrder.sortedIds(this.handCards(), by);
    this.sortBy = by;
    try { localStorage.setItem(SORT_KEY, by); } catch { /* private mode */ }
    this.saveOrder();
  }

  // The first hand of a page with no order kept: in the chosen sort, if any.
  sortNewHand(hand) {
    if (!this.order.length && this.sortBy) this.order = handOrder.sortedIds(hand, this.sortBy);
  }

  // Card `id` swapped with its neighbour `delta` places away; false when there is none.
  moveCard(id, delta) {
    const order = handOrder.swapped(this.order, id, delta);
    if (!order) return false;
    this.order = order;
    this.saveOrder();
    return true;
  }

  moveCardTo(id, index) {
    this.order = handOrder.movedTo(this.order, id, index);
    this.saveOrder();
  }

  // A new deal on screen: a new hand, nothing selected, sorted as the player likes it.
  dealStarted(hand) {
    this.fresh = new Set();
    this.selected.clear();
    if (this.sortBy && hand) { this.order = handOrder.sortedIds(hand, this.sortBy); this.saveOrder(); }
  }

  // The server's view is on screen; the cards it adds to a hand of `handBefore` are fresh
  // (one card: it gets the focus). True when news is waiting: the caller reads the game again.
  showServerView(after, handBefore, dealStarted) {
    const held = new Set(handBefore.map((c) => c.id));
    this.accept(after);
    this.markShown(after.version);
    this.shown = after;
    this.busy = false;
    if (dealStarted) this.fresh = new Set();
    else for (const c of after.hand) if (!held.has(c.id) && !this.fresh.size && held.size) this.fresh.add(c.id);
    if (this.fresh.size === 1 && after.phase === "play") this.focusId = [...this.fresh][0];
    return this.syncWanted || this.heardVersion > after.version;
  }
}
