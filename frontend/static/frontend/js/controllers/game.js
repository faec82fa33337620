// The table's controller: wires the page's parts together. The game's state is all in the
// store (store.js: the GameView, what is on screen, the hand's order and selection); this
// creates the views and controllers, sends the player's actions through api.js, plays the
// news (playback.js) and has views/table.js draw the store. The parts: store.js,
// playback.js (events one by one), dialogs.js (between deals, the end), views/log.js (the
// deal's log), views/table.js (the table), composer.js, hint.js.
import * as api from "../api.js";
import { showInfo, showMessage } from "../errors.js";
import { format, gettext } from "../i18n.js";
import { playCardSound } from "../settings.js";
import { openSocket } from "../socket.js";
import { layOutHand } from "../views/hand.js";
import { DealLog } from "../views/log.js";
import { renderScores } from "../views/scores.js";
import { renderTable } from "../views/table.js";
import { renderTurnClock } from "../views/timer.js";
import { eventData, eventType } from "./animator.js";
import { Composer } from "./composer.js";
import { reopenDealSummary, showDealSummary, showResult, useBreakClock, viewAtDealEnd } from "./dialogs.js";
import { giveHint } from "./hint.js";
import { Playback } from "./playback.js";
import { GameStore } from "./store.js";

const SYNC_DELAY_MS = 120; // a turn's frames come in a burst: one read of the game for them all
const SYNC_RETRY_MS = 3000; // a read the network or a busy server lost is tried again
const TICK_MS = 100; // the turn timer's countdown: a second's change shows within a tenth of it
// The player's moves, which wait for a read of the game on its way (afterRead).
const MOVES = ["draw", "discard", "layOff", "openComposer", "layDown", "hint"];

export class GameController {
  constructor(root, { gameId, ladder, settings }) {
    this.root = root;
    this.gameId = gameId;
    this.ladder = ladder; // rung -> contract text
    this.settings = settings;
    this.store = new GameStore(gameId); // all of the game's state
    this.syncTimer = null; // the page's own machinery, not the game's state
    this.reading = null; // a read of the game on its way (sync()), which input waits for
    this.socketPending = true; // the socket has not opened yet (nor failed to)
    this.ticker = null; // redraws the turn timer's countdown while one runs
    this.socket = null;
    for (const name of MOVES) {
      const move = this[name];
      this[name] = (...args) => (this.reading
        ? this.afterRead(() => this[name](...args)) : move.apply(this, args));
    }
    const q = (s) => root.querySelector(s);
    this.els = {
      seats: q("[data-seats]"), melds: q("[data-melds]"), hand: q("[data-hand]"),
      stock: q("[data-stock]"), discard: q("[data-discard]"), stockCount: q("[data-stock-count]"),
      discardCount: q("[data-discard-count]"), discardTop: q("[data-discard-top]"),
      stockLabel: q("[data-stock-label]"), discardLabel: q("[data-discard-label]"),
      ladder: q("[data-ladder]"), legend: q("[data-ladder-legend]"), contract: q("[data-me-contract]"), turn: q("[data-turn]"),
      dealInfo: q("[data-deal-info]"), message: q("[data-message]"), log: q("[data-log]"), logLines: q("[data-log-lines]"),
      summary: q("[data-summary]"), summaryTitle: q("[data-summary-title]"),
      summaryBody: q("[data-summary-body]"), summaryActions: q("[data-summary-actions]"),
      composer: q("[data-composer]"), slots: q("[data-slots]"),
      scoresPanel: q("#scores"), scores: q("[data-scores]"), scoresToggle: q("[data-scores-toggle]"),
      layDownConfirm: q("[data-laydown-confirm]"), hint: q("[data-hint]"), playback: q("[data-playback]"),
      me: q("section.me"), clock: q("[data-turn-clock]"), away: q("[data-away]"), back: q("[data-back]"),
      actions: Object.fromEntries([...root.querySelectorAll("[data-action]")].map((b) => [b.dataset.action, b])),
    };
    this.composer = new Composer(this.els.slots);
    this.log = new DealLog({ box: this.els.log, lines: this.els.logLines, message: this.els.message });
    this.playback = new Playback(this);
    this.onWait = (e) => showInfo(this.els.message,
      format(gettext("The server asks us to slow down: your move goes in %(n)s s."), { n: e.detail }));
    api.waiting.addEventListener("wait", this.onWait);
    this.handObserver = new ResizeObserver(() => layOutHand(this.els.hand));
    this.handObserver.observe(this.els.hand);
  }

  get view() {
    return this.store.view;
  }

  get myTurn() {
    return this.store.myTurn;
  }

  // --- Loading and syncing -------------------------------------------------------------

  // The socket opens first and every opening reads the game: the server joins the socket
  // to its seat's group before the open, so a move is either in a read begun after an open
  // or heard as a frame (docs/design.md, "The page's state: the store and sync").
  // Whatever arrives during the first read waits for it (`busy`), then reads again.
  async start() {
    this.store.busy = true;
    this.showBusy();
    this.socket = openSocket(`/ws/games/${this.gameId}/`, (message) => this.onSocket(message), {
      onOpen: () => { this.socketPending = false; this.sync(); },
      // A socket that cannot open does not keep the page busy: it works without one.
      onClose: () => { if (this.socketPending) { this.socketPending = false; this.showBusy(); } },
    });
    let news;
    try {
      news = await this.store.sync();
    } catch (error) {
      this.socket.close(); // as before the socket: the page says why and stops
      this.socketPending = false;
      this.showBusy();
      this.root.removeAttribute("data-loading");
      showMessage(this.els.message, error);
      return;
    }
    this.root.removeAttribute("data-loading");
    // A table's timer: the results between deals count the break down and end it when read.
    if (news.view.turn_seconds) {
      useBreakClock({ left: () => this.store.breakLeft(), paused: () => this.store.paused,
        ready: () => api.ready(this.gameId) });
    }
    this.store.sortNewHand(news.view.hand);
    await this.showNews(news);
    if (this.view.phase === "finished") showResult(this.els, this.view);
    // The results the player had open when the page went, or a later deal's that ended
    // while it was away (store.sync): not awaited, play may go on beneath.
    else reopenDealSummary(this.els, this.gameId, this.missed(news));
  }

  // The results of a deal that ended while this page was away, as the dialog shows them.
  missed({ missedDeal }) {
    return missedDeal ? { view: viewAtDealEnd(this.view, missedDeal), deal: missedDeal } : null;
  }

  // Everything the page set up, taken down (the page is going away).
  stop() {
    this.stopped = true; // no read is tried again after this
    this.socket?.close();
    clearTimeout(this.syncTimer);
    clearInterval(this.ticker);
    this.playback.stop();
    this.handObserver.disconnect();
    api.waiting.removeEventListener("wait", this.onWait);
  }

  // What `store.sync()` read: the log rebuilt from the server's events up to what is on
  // screen, then the news played, then the server's view. Called with `busy` set.
  async showNews({ view, log, before, news, quietThrough }) {
    if (log) {
      const upTo = before ? before.version : view.version;
      this.store.pileBelow = this.log.rebuild(log.before, log.events.filter((e) => e.v <= upTo));
    }
    if (news.length) {
      this.store.pileBelow = await this.playback.play(before, news, { quietThrough, pileBelow: this.store.pileBelow });
    }
    this.finish(view, news, (before || this.view || view).hand);
  }

  // The news of another tab or a lost frame: read the game and the deal's log, and show what
  // this page has not shown yet, with a note when the player's own moves came from elsewhere.
  sync() {
    if (this.store.busy) { this.store.syncWanted = true; return this.reading; }
    const reading = this.read().finally(() => {
      if (this.reading !== reading) return; // a read of its own followed on
      this.reading = null;
      this.showBusy();
    });
    this.reading = reading;
    this.showBusy();
    return reading;
  }

  // The table is `aria-busy` while it catches up: until its socket has opened and the read at
  // that opening is in, and during every read after.
  showBusy() {
    if (this.reading || this.socketPending) this.root.setAttribute("aria-busy", "true");
    else this.root.removeAttribute("aria-busy");
  }

  // Once no read of the game is on its way.
  async readDone() {
    while (this.reading) await this.reading;
  }

  // A move of the player's that comes while a read is on its way (the socket's opening,
  // another seat's frame) waits for it, and goes on only if the read brought no move: a
  // click a moment after the page opens is not lost, and never meets a table the player
  // has not seen.
  async afterRead(act) {
    const version = this.view?.version;
    await this.readDone();
    if (this.view?.version === version) return act();
  }

  async read() {
    this.store.syncWanted = false;
    this.store.busy = true;
    const renamed = this.store.renamed;
    this.store.renamed = false;
    let news;
    try {
      news = await this.store.sync();
    } catch (error) {
      this.store.busy = false;
      this.store.renamed ||= renamed;
      // No frame may come to try again: the page would stay behind. A refusal (a 4xx but
      // "too many requests") is final.
      const refused = error?.status >= 400 && error.status < 500 && error.status !== 429;
      if (!refused && !this.stopped) {
        clearTimeout(this.syncTimer);
        const wait = Math.max(SYNC_RETRY_MS, 1000 * (Number(error?.retryAfter) || 0));
        this.syncTimer = setTimeout(() => this.sync(), wait);
      }
      return;
    }
    if (news.view.version === this.view?.version) {
      // No move, but a new name: the same game drawn again, its log rebuilt with the name.
      if (renamed) await this.showNews(news);
      this.store.busy = false;
      // Frames heard while this read was on its way (another person's next move) are news.
      if (this.store.heardVersion > this.view.version) this.onSocket({ v: this.store.heardVersion });
      return;
    }
    const mine = news.news.filter((e) => eventData(e).seat === news.view.you && eventType(e) !== "deal_started");
    // The player's moves the computer chose for them (GET /events' `bot`) are not another
    // tab's: say what happened. Read before showing: the view after may say "away" already.
    const ranOut = this.store.timedOutMe;
    const forMe = mine.some((e) => e.bot) || (ranOut && !news.news.length && this.view);
    const away = !ranOut && this.store.awayMe;
    const elsewhere = mine.length || (!news.news.length && this.view);
    this.store.timedOutMe = false;
    await this.showNews(news);
    const missed = this.missed(news); // a deal's end this open page missed (asleep, offline)
    if (missed && !this.els.summary.open) showDealSummary(this.els, missed.view, missed.deal);
    if (forMe) {
      showInfo(this.els.message, away
        ? gettext("You are away: the computer played your turn.")
        : gettext("Time ran out — the computer played your turn."));
    } else if (elsewhere) showInfo(this.els.message, gettext("A move was played in another tab: this page has caught up."));
    if (this.view.phase === "finished") showResult(this.els, this.view);
  }

  // Someone at the game took a new name (the table's socket said so): read it again.
  renamed() {
    this.store.renamed = true;
    this.sync();
  }

  // A frame on the game's socket: the HTTP answers carry this tab's own news, so only a
  // version beyond the store's (another tab, or frames out of order) makes it read the game,
  // once for a turn's burst of frames.
  onSocket(message) {
    if (this.store.hearNotice(message) && this.store.shown) this.render();
    if (!message || typeof message.v !== "number" || message.v <= this.store.version) return;
    this.store.heardVersion = Math.max(this.store.heardVersion, message.v);
    if (this.store.busy) return; // finish() looks again: this tab's own answer may carry it
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => this.sync(), SYNC_DELAY_MS);
  }

  // The server's view is on screen: the store's own, and play may go on.
  finish(after, events, handBefore = []) {
    const dealStarted = events.some((e) => eventType(e) === "deal_started");
    const newsWaiting = this.store.showServerView(after, handBefore, dealStarted);
    this.els.playback.hidden = true;
    this.render();
    if (newsWaiting) this.sync();
  }

  // A new deal on screen: a new hand, sorted as the player likes it.
  dealStarted(hand) {
    this.composer.close();
    this.store.dealStarted(hand);
  }

  // --- The hand's order (the store keeps it) ---------------------------------------------

  sortHand(by) {
    this.store.sortHand(by);
    this.render();
  }

  moveCard(id, delta) {
    if (this.store.moveCard(id, delta)) this.render();
  }

  moveCardTo(id, index) {
    this.store.moveCardTo(id, index);
    this.render();
  }

  // --- Rendering --------------------------------------------------------------------------

  render() {
    renderTable(this.root, this.els, this.store, { composer: this.composer, ladder: this.ladder, lastMoves: this.log.lastMoves });
    this.keepTicking();
  }

  // The countdown redrawn while a turn timer runs (its end is the store's: the server's
  // deadline); nothing ticks in a game without one.
  keepTicking() {
    if (this.store.timer && !this.ticker) {
      this.ticker = setInterval(() => renderTurnClock(this.els, this.store), TICK_MS);
    } else if (!this.store.timer && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  // "I'm back": the seat is the person's again (any action would do it too).
  async back() {
    this.els.back.disabled = true;
    try {
      this.store.hearAway(await api.imBack(this.gameId));
    } catch (error) {
      showMessage(this.els.message, error);
    }
    this.els.back.disabled = false;
    this.render();
    this.sync();
  }

  // The "scores so far" panel: opened and closed by its button, C, or Escape inside it.
  toggleScores(open = this.els.scoresPanel.hidden) {
    this.els.scoresPanel.hidden = !open;
    this.els.scoresToggle.setAttribute("aria-expanded", String(open));
    if (open && this.store.shown) renderScores(this.els.scores, this.store.shown);
  }

  // --- Actions ----------------------------------------------------------------------------

  async send(action) {
    if (this.store.busy || !this.view) return;
    this.store.busy = true;
    this.store.hinted = null;
    const before = this.view;
    this.render();
    let response;
    try {
      response = await api.act(this.gameId, this.view.version, action);
    } catch (error) {
      this.store.busy = false;
      if (error.code === "stale_version" || error.status === 409) {
        // Another tab moved first: show what it did, then the player may act again.
        await this.sync();
        return;
      }
      this.render();
      showMessage(this.els.message, error);
      return;
    }
    this.els.message.textContent = "";
    playCardSound(this.settings);
    if (action.type === "draw") this.store.fresh = new Set();
    const events = response.events || [];
    this.store.hearClock(response.game); // the results this move may end on count it down
    this.store.pileBelow = await this.playback.play(before, events, { pileBelow: this.store.pileBelow });
    this.finish(response.game, events, before.hand);
    const after = this.view;
    if (after.phase === "finished") {
      await this.playback.celebrate(gettext("The game is over: well played!"));
      showResult(this.els, after);
    } else if (after.turn === after.you) this.focusHand();
  }

  skip() {
    return this.playback.skip();
  }

  draw(from) {
    if (!this.myTurn) return this.refuse(this.view?.turn !== this.view?.you ? "not_your_turn" : null);
    if (this.view.phase !== "draw") return this.refuse("already_drawn");
    if (!this.store.canDraw(from)) return this.refuse(from === "discard" ? "no_discard_left" : null);
    return this.send({ type: "draw", from });
  }

  discard(cardId) {
    if (!this.myTurn) return this.refuse("not_your_turn");
    if (this.view.phase === "draw") return this.refuse("draw_first");
    if (!cardId) return this.refuse("select_one");
    if (!(this.store.legal().discard || []).includes(cardId)) return this.refuse("discard_taken_card");
    this.store.selected.delete(cardId);
    this.composer.remove(cardId);
    return this.send({ type: "discard", card: cardId });
  }

  layOff(cardId, meld, end) {
    if (!this.myTurn) return this.refuse("not_your_turn");
    if (this.view.phase === "draw") return this.refuse("draw_first");
    const me = this.view.players[this.view.you];
    if (!me.laid_down) return this.refuse("contract_not_laid_down");
    const targets = this.store.targetsFor(cardId);
    if (!targets.size) {
      const anywhere = (this.store.legal().lay_off || []).length;
      return this.refuse(anywhere || this.view.legal?.lay_off?.length ? "no_target" : "lay_off_same_turn_or_none");
    }
    if (meld === undefined) {
      if (targets.size !== 1 || targets.values().next().value.length !== 1) {
        return showInfo(this.els.message, gettext("Choose the meld (and end) on the table."));
      }
      [meld] = targets.keys();
      [end] = targets.get(meld);
    }
    const ends = targets.get(meld);
    if (!ends) return this.refuse("does_not_fit");
    this.store.selected.delete(cardId);
    const action = { type: "lay_off", meld, card: cardId };
    if (end) action.end = end;
    return this.send(action);
  }

  openComposer() {
    if (!this.myTurn) return this.refuse("not_your_turn");
    if (this.view.phase === "draw") return this.refuse("draw_first");
    if (!this.store.legal().may_lay_down) return this.refuse("already_laid_down");
    // Why not, as the server found it: the hand does not hold the contract, or R17 refuses.
    if (!this.store.layDowns().length) {
      return this.refuse(this.store.legal().holds_contract ? "no_discard_left" : "contract_not_held");
    }
    const me = this.view.players[this.view.you];
    this.composer.start(me.contract);
    if (!this.arrange()) {
      this.render();
      this.els.composer.querySelector("button:not([disabled])")?.focus();
    }
  }

  // Arrange the selected cards (or, none selected, the hand) into the contract's melds, for
  // the player to confirm or adjust. Says so when they cannot form it.
  arrange() {
    const byId = this.store.byId();
    const pool = this.store.selected.size >= 3 ? [...this.store.selected].map((id) => byId.get(id)).filter(Boolean) : this.store.handCards();
    const layDown = this.store.layDownWithin(pool);
    if (!layDown) {
      showInfo(this.els.message, this.store.selected.size >= 3
        ? gettext("The selected cards do not form your contract: add cards to each meld yourself.")
        : gettext("Your hand does not hold your contract yet: add cards to each meld yourself."));
      return false;
    }
    this.composer.fillFrom(layDown.melds, byId);
    this.store.selected.clear();
    this.render();
    showInfo(this.els.message, gettext("Your contract is arranged: lay it down, or change the melds first."));
    this.els.layDownConfirm.focus();
    return true;
  }

  layDown() {
    const melds = this.composer.melds(this.store.byId());
    if (!melds) return;
    this.composer.close();
    this.store.selected.clear();
    return this.send({ type: "lay_down", melds });
  }

  refuse(code) {
    if (!code) return;
    if (code === "lay_off_same_turn_or_none") {
      const me = this.view.players[this.view.you];
      code = me.laid_down ? "lay_off_same_turn" : "contract_not_laid_down";
      if (me.laid_down && (this.view.legal?.lay_off || []).length === 0) code = "no_target";
    }
    showMessage(this.els.message, code);
  }

  hint() {
    return giveHint(this);
  }

  focusHand() {
    const target = this.els.hand.querySelector('[tabindex="0"]');
    if (target && !this.els.summary.open && document.activeElement?.closest?.("[data-composer]") == null) target.focus({ preventScroll: true });
  }
}
