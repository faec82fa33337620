// The table's controller: holds the latest GameView, the hand's order and the selection,
// sends actions through api.js, animates the computer players' turns, and renders.
import * as api from "../api.js";
import { findContract } from "../cards.js";
import * as counts from "../counts.js";
import { showInfo, showMessage } from "../errors.js";
import { format, gettext } from "../i18n.js";
import { SPEED_MS, playCardSound } from "../settings.js";
import { openSocket, socketsAvailable } from "../socket.js";
import { layOutHand, renderHand } from "../views/hand.js";
import { renderLadder } from "../views/ladder.js";
import { contractLine, renderMelds, renderPiles } from "../views/melds.js";
import { renderScores } from "../views/scores.js";
import { renderSeats } from "../views/seats.js";
import { dealSymbols, fillShareBox, shareBox, shareLines } from "../views/sharecard.js";
import { dealSummary, resultTable } from "../views/summary.js";
import { applyEvent, cloneView, describeEvent, eventData, eventType, pileStep } from "./animator.js";
import { Composer } from "./composer.js";
import * as handOrder from "./handorder.js";
import { giveHint } from "./hint.js";
import { FLIGHT_SHARE, REDUCED, flightsWanted, landFlight, startFlight } from "./flight.js";

const SORT_KEY = "ladder.sort";
const LOG_LINES = 400; // a long deal has some 150 moves
export const TOUCH = globalThis.matchMedia?.("(hover: none) and (pointer: coarse)");

export class GameController {
  constructor(root, { gameId, ladder, settings }) {
    this.root = root;
    this.gameId = gameId;
    this.ladder = ladder; // rung -> contract text
    this.settings = settings;
    this.view = null; // the latest GameView from the server
    this.shown = null; // what is on screen (a step behind while animating)
    this.order = this.loadOrder();
    this.sortBy = (() => { try { return localStorage.getItem(SORT_KEY); } catch { return null; } })();
    this.selected = new Set();
    this.fresh = new Set();
    this.focusId = null;
    this.busy = false;
    this.skipping = false; // the player skipped the rest of the computer players' moves
    this.wake = null; // ends the current pause early
    this.hinted = null; // {cards: Set, pile: "stock"|"discard"} the hint points at
    this.socket = null;
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
      actions: Object.fromEntries([...root.querySelectorAll("[data-action]")].map((b) => [b.dataset.action, b])),
    };
    this.composer = new Composer(this.els.slots);
    api.waiting.addEventListener("wait", (e) => showInfo(this.els.message,
      format(gettext("The server asks us to slow down: your move goes in %(n)s s."), { n: e.detail })));
    new ResizeObserver(() => layOutHand(this.els.hand)).observe(this.els.hand);
    new ResizeObserver(() => { this.els.log.scrollTop = this.els.log.scrollHeight; }).observe(this.els.log);
  }

  // --- Loading and syncing -------------------------------------------------------------

  async start() {
    let view, log = null;
    try {
      [view, log] = await Promise.all([api.game(this.gameId), api.dealLog(this.gameId).catch(() => null)]);
    } catch (error) {
      this.root.removeAttribute("data-loading");
      showMessage(this.els.message, error);
      return;
    }
    this.root.removeAttribute("data-loading");
    if (!this.order.length && this.sortBy) this.order = this.sorted(view.hand, this.sortBy);
    const news = log && log.version === view.version && view.phase !== "finished"
      ? log.events.filter((e) => e.v > log.seen) : [];
    if (log) this.logPast(log.before, log.events.filter((e) => e.v <= log.seen || !news.length));
    if (news.length) {
      this.setView(log.before);
      this.render();
      this.busy = true;
      await this.animate(log.before, news, view);
    } else {
      this.setView(view);
      this.render();
    }
    if (this.view.phase === "finished") this.showResult();
    if (socketsAvailable()) {
      let reconnect = false; // after a reconnect, catch up on what the socket missed
      this.socket = openSocket(`/ws/games/${this.gameId}/`, (msg) => this.onSocket(msg),
        { onOpen: () => { if (reconnect) this.resync(); reconnect = true; } });
    }
  }

  stop() {
    this.socket?.close();
  }

  setView(view) {
    this.view = view;
    this.shown = view;
  }

  async resync() {
    if (this.busy) return;
    try {
      const view = await api.game(this.gameId);
      if (!this.view || view.version !== this.view.version) {
        this.setView(view);
        this.render();
      }
    } catch { /* the next action will tell */ }
  }

  // The socket repeats what the HTTP responses carry; only news from elsewhere (another
  // tab, a gap in versions) makes us fetch the game again.
  onSocket(message) {
    if (this.busy || !this.view) return;
    if (typeof message.v === "number" && message.v <= this.view.version) return;
    this.resync();
  }

  // --- Hand order ------------------------------------------------------------------------

  loadOrder() {
    return handOrder.loadOrder(this.gameId);
  }

  saveOrder() {
    handOrder.saveOrder(this.gameId, this.order);
  }

  // The hand in the player's order (controllers/handorder.js).
  handCards() {
    const byId = this.byId();
    this.order = handOrder.arrange(this.order, this.shown.hand, this.sortBy);
    return this.order.map((id) => byId.get(id));
  }

  byId() {
    return new Map(this.shown.hand.map((c) => [c.id, c]));
  }

  sorted(cards, by) {
    return handOrder.sortedIds(cards, by);
  }

  // The chosen sort is kept in this browser and applied to each new deal's hand.
  sortHand(by) {
    this.order = this.sorted(this.handCards(), by);
    this.sortBy = by;
    try { localStorage.setItem(SORT_KEY, by); } catch { /* private mode */ }
    this.saveOrder();
    this.render();
  }

  moveCard(id, delta) {
    const order = handOrder.swapped(this.order, id, delta);
    if (!order) return;
    this.order = order;
    this.saveOrder();
    this.render();
  }

  moveCardTo(id, index) {
    this.order = handOrder.movedTo(this.order, id, index);
    this.saveOrder();
    this.render();
  }

  // --- What is legal now (from the view's hints) ------------------------------------------

  get myTurn() {
    return !this.busy && this.view && this.shown === this.view && this.view.turn === this.view.you && this.view.phase !== "finished";
  }

  legal() {
    return this.myTurn ? this.view.legal || {} : { draw: [], lay_down: false, lay_off: [], discard: [] };
  }

  canDraw(from) {
    return (this.legal().draw || []).includes(from);
  }

  targetsFor(cardId) {
    const targets = new Map();
    for (const o of this.legal().lay_off || []) {
      if (o.card !== cardId) continue;
      targets.set(o.meld, [...(targets.get(o.meld) || []), o.end]);
    }
    return targets;
  }

  // --- Rendering --------------------------------------------------------------------------

  render() {
    const v = this.shown;
    if (!v) return;
    const legal = this.legal();
    const me = v.players[v.you];
    this.els.dealInfo.textContent = format(gettext("Deal %(deal)s of 10"), { deal: v.deal })
      + " · " + (v.mode === "daily" ? gettext("Daily") : format(gettext("Practice (%(level)s)"), { level: levelName(v.level) }));
    this.els.contract.textContent = contractLine(v);
    this.els.turn.textContent = this.turnText();
    this.root.classList.toggle("my-turn", this.myTurn);
    renderSeats(this.els.seats, v);
    renderPiles(this.els, v, { canDraw: (f) => this.canDraw(f), below: (v.pile_below || this.pileBelow || []).at(-1) });
    const single = this.selected.size === 1 ? [...this.selected][0] : null;
    renderMelds(this.els.melds, v, single ? this.targetsFor(single) : new Map());
    renderLadder(this.els.ladder, v, this.ladder, this.els.legend);
    const cards = this.handCards();
    const composerIds = this.composer.ids();
    for (const id of [...this.selected]) if (!cards.some((c) => c.id === id)) this.selected.delete(id);
    renderHand(this.els.hand, cards, {
      selected: this.selected, focusId: this.focusId, fresh: this.fresh,
      discardable: new Set(legal.discard || []), inComposer: composerIds, hinted: this.hinted?.cards,
      phase: this.myTurn ? v.phase : "wait",
    });
    this.els.stock.classList.toggle("hinted", this.hinted?.pile === "stock");
    this.els.discard.classList.toggle("hinted", this.hinted?.pile === "discard");
    const playing = this.myTurn && v.phase === "play";
    this.els.actions.laydown.disabled = !(playing && legal.lay_down) || this.composer.open;
    const ready = !this.els.actions.laydown.disabled && Boolean(this.contractIn(cards));
    this.els.actions.laydown.classList.toggle("ready", ready);
    this.els.actions.laydown.classList.toggle("primary", ready);
    this.els.actions.layoff.disabled = !(playing && single && this.targetsFor(single).size);
    this.els.actions.discard.disabled = !(playing && single && (legal.discard || []).includes(single));
    this.els.hint.hidden = v.mode !== "practice" || v.phase === "finished";
    this.els.hint.disabled = !this.myTurn;
    if (this.composer.open) {
      this.els.composer.hidden = false;
      this.els.layDownConfirm.disabled = !this.composer.render(this.byId(), this.selected.size > 0) || !playing;
    } else {
      this.els.composer.hidden = true;
    }
    if (me) this.root.querySelector("[data-me-name]").textContent = gettext("You");
    if (!this.els.scoresPanel.hidden) renderScores(this.els.scores, v);
  }

  // The "scores so far" panel: opened and closed by its button, C, or Escape inside it.
  toggleScores(open = this.els.scoresPanel.hidden) {
    this.els.scoresPanel.hidden = !open;
    this.els.scoresToggle.setAttribute("aria-expanded", String(open));
    if (open && this.shown) renderScores(this.els.scores, this.shown);
  }

  turnText() {
    const v = this.shown;
    if (v.phase === "finished") return gettext("The game is over.");
    if (this.busy || v !== this.view) return gettext("The computer players are playing…");
    if (v.turn !== v.you) return gettext("Waiting for the computer players…");
    if (v.phase === "draw") return gettext("Your turn: draw from the stock or take the discard.");
    return TOUCH?.matches
      ? gettext("Your turn: lay down or lay off if you can, then discard (tap a card twice).")
      : gettext("Your turn: lay down or lay off if you can, then discard (double-click a card, or D).");
  }

  // --- Actions ----------------------------------------------------------------------------

  async send(action) {
    if (this.busy || !this.view) return;
    this.busy = true;
    this.hinted = null;
    const before = this.view;
    this.render();
    let response;
    try {
      response = await api.act(this.gameId, this.view.version, action);
    } catch (error) {
      this.busy = false;
      if (error.code === "stale_version" || error.status === 409) {
        if (error.game) this.setView(error.game); else await this.resyncNow();
        this.render();
        return;
      }
      this.render();
      showMessage(this.els.message, error);
      return;
    }
    this.els.message.textContent = "";
    playCardSound(this.settings);
    if (action.type === "draw") this.fresh = new Set();
    await this.animate(before, response.events || [], response.game);
  }

  async resyncNow() {
    try { this.setView(await api.game(this.gameId)); } catch { /* shown as is */ }
  }

  // Show the events one by one on a copy of the old view, then the new view.
  async animate(before, events, after) {
    const delay = SPEED_MS[this.settings.speed] ?? SPEED_MS.normal;
    const shown = cloneView(before);
    shown.pile_below = [...(this.pileBelow || [])];
    this.shown = shown;
    this.skipping = false;
    const handBefore = new Set(before.hand.map((c) => c.id));
    const botMoves = events.some((e) => { const s = eventData(e).seat; return s !== undefined && s !== before.you; });
    this.els.playback.hidden = !(botMoves && delay);
    for (const event of events) {
      const type = eventType(event), d = eventData(event);
      applyEvent(shown, event);
      const line = describeEvent(shown, event);
      if (line) this.log(line, { mine: d.seat === shown.you, deal: d.seat === undefined });
      if (type === "drew" && d.seat === shown.you && d.card) this.fresh = new Set([d.card.id]);
      if (type === "deal_started") {
        this.fresh = new Set(); this.composer.close(); this.selected.clear();
        if (this.sortBy && d.hand) { this.order = this.sorted(d.hand, this.sortBy); this.saveOrder(); }
      }
      if (type === "laid_down" && d.seat === shown.you) this.celebrate(gettext("Contract laid down: a rung climbed!"));
      const botStep = d.seat !== undefined && d.seat !== shown.you;
      const wait = this.skipping ? 0 : delay;
      const from = botStep && flightsWanted(wait) ? startFlight(this.els, type, d) : null;
      if (botStep || type === "deal_ended") {
        this.render();
        this.highlightSeat(d.seat);
        if (from) landFlight(this.els, type, d, from, Math.round(wait * FLIGHT_SHARE));
        if (botStep && wait) { playCardSound(this.settings); await this.pause(wait); }
      }
      if (type === "deal_ended") await this.showDealSummary(shown, d);
    }
    this.pileBelow = shown.pile_below;
    this.els.playback.hidden = true;
    this.view = after;
    this.shown = after;
    this.busy = false;
    if (events.some((e) => eventType(e) === "deal_started")) this.fresh = new Set();
    else for (const c of after.hand) if (!handBefore.has(c.id) && !this.fresh.size) this.fresh.add(c.id);
    if (this.fresh.size === 1 && after.phase === "play") this.focusId = [...this.fresh][0];
    this.render();
    if (after.phase === "finished") { await this.celebrate(gettext("The game is over: well played!")); this.showResult(); }
    else if (after.turn === after.you) this.focusHand();
  }

  // A pause between the computer players' moves, cut short by skip().
  pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() { clearTimeout(timer); resolve(); }
      this.wake = done;
    });
  }

  // Skip (button or Escape): the rest of the computer players' moves show at once.
  skip() {
    if (!this.busy) return false;
    this.skipping = true;
    this.wake?.();
    return true;
  }

  // A short, skippable moment (none when the system asks for reduced motion); it takes no
  // clicks, so play goes on under it.
  celebrate(text) {
    if (REDUCED?.matches) return Promise.resolve();
    document.querySelector(".celebration")?.remove();
    const box = document.createElement("div");
    box.className = "celebration";
    box.setAttribute("aria-hidden", "true"); // the log and the message say it in words
    const p = document.createElement("p");
    p.textContent = text;
    box.append(p);
    for (let i = 0; i < 14; i++) {
      const bit = document.createElement("i");
      const angle = (i / 14) * 2 * Math.PI;
      bit.style.setProperty("--dx", `${Math.round(Math.cos(angle) * 220)}px`);
      bit.style.setProperty("--dy", `${Math.round(Math.sin(angle) * 160)}px`);
      bit.style.background = ["#ffd166", "#8fe3a8", "#7fd3ff", "#ffb4a8"][i % 4];
      box.append(bit);
    }
    document.body.append(box);
    return new Promise((resolve) => {
      const end = () => {
        box.remove();
        document.removeEventListener("pointerdown", end, true);
        document.removeEventListener("keydown", end, true);
        resolve();
      };
      document.addEventListener("pointerdown", end, true);
      document.addEventListener("keydown", end, true);
      setTimeout(end, 1600);
    });
  }

  highlightSeat(seat) {
    for (const el of this.els.seats.querySelectorAll(".seat")) {
      el.classList.toggle("acting", Number(el.dataset.seat) === seat);
    }
  }

  // The deal log (role="log", newest last, kept scrolled to the end); the latest line also
  // goes to the message bar unless `quiet`.
  log(line, { mine = false, deal = false, quiet = false } = {}) {
    const li = document.createElement("li");
    li.textContent = line;
    if (mine) li.classList.add("mine");
    if (deal) li.classList.add("deal");
    if (!quiet) li.classList.add("news");
    this.els.logLines.append(li);
    while (this.els.logLines.children.length > LOG_LINES) this.els.logLines.firstChild.remove();
    this.els.log.scrollTop = this.els.log.scrollHeight;
    if (!quiet) showInfo(this.els.message, line);
  }

  clearLog() {
    this.els.logLines.replaceChildren();
  }

  // The deal's moves before the page opened, written to the log without animation; the
  // discard pile's cards beneath the top are remembered from them.
  logPast(before, events) {
    const shown = cloneView(before);
    shown.pile_below = [];
    for (const event of events) {
      const d = eventData(event);
      if (eventType(event) === "deal_started") { this.clearLog(); shown.pile_below = []; }
      pileStep(shown, event);
      const line = describeEvent(shown, event);
      if (line) this.log(line, { mine: d.seat === shown.you, deal: d.seat === undefined, quiet: true });
    }
    this.pileBelow = shown.pile_below;
  }

  // The contract's melds from `cards` (the selection, or the whole hand), or null.
  contractIn(cards) {
    const me = this.view?.players[this.view.you];
    if (!me || me.laid_down) return null;
    const key = cards.map((c) => c.id).sort().join() + "|" + me.rung;
    if (this.contractKey !== key) { this.contractKey = key; this.contractFound = findContract(cards, me.contract); }
    return this.contractFound;
  }

  draw(from) {
    if (!this.myTurn) return this.refuse(this.view?.turn !== this.view?.you ? "not_your_turn" : null);
    if (this.view.phase !== "draw") return this.refuse("already_drawn");
    if (!this.canDraw(from)) return this.refuse(from === "discard" ? "no_discard_left" : null);
    return this.send({ type: "draw", from });
  }

  discard(cardId) {
    if (!this.myTurn) return this.refuse("not_your_turn");
    if (this.view.phase === "draw") return this.refuse("draw_first");
    if (!cardId) return this.refuse("select_one");
    if (!(this.legal().discard || []).includes(cardId)) return this.refuse("discard_taken_card");
    this.selected.delete(cardId);
    this.composer.remove(cardId);
    return this.send({ type: "discard", card: cardId });
  }

  layOff(cardId, meld, end) {
    if (!this.myTurn) return this.refuse("not_your_turn");
    if (this.view.phase === "draw") return this.refuse("draw_first");
    const me = this.view.players[this.view.you];
    if (!me.laid_down) return this.refuse("contract_not_laid_down");
    const targets = this.targetsFor(cardId);
    if (!targets.size) {
      const anywhere = (this.legal().lay_off || []).length;
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
    this.selected.delete(cardId);
    const action = { type: "lay_off", meld, card: cardId };
    if (end) action.end = end;
    return this.send(action);
  }

  openComposer() {
    if (!this.myTurn) return this.refuse("not_your_turn");
    if (this.view.phase === "draw") return this.refuse("draw_first");
    if (!this.legal().lay_down) return this.refuse("already_laid_down");
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
    const byId = this.byId();
    const pool = this.selected.size >= 3 ? [...this.selected].map((id) => byId.get(id)).filter(Boolean) : this.handCards();
    const melds = this.contractIn(pool);
    if (!melds) {
      showInfo(this.els.message, this.selected.size >= 3
        ? gettext("The selected cards do not form your contract: add cards to each meld yourself.")
        : gettext("Your hand does not hold your contract yet: add cards to each meld yourself."));
      return false;
    }
    this.composer.fill(melds);
    this.selected.clear();
    this.render();
    showInfo(this.els.message, gettext("Your contract is arranged: lay it down, or change the melds first."));
    this.els.layDownConfirm.focus();
    return true;
  }

  layDown() {
    const melds = this.composer.melds(this.byId());
    if (!melds) return;
    this.composer.close();
    this.selected.clear();
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

  // --- Between deals and at the end -------------------------------------------------------

  showDealSummary(view, deal) {
    const last = deal.deal === 10;
    this.els.summaryTitle.textContent = format(gettext("Deal %(deal)s is over"), { deal: deal.deal });
    this.els.summaryBody.replaceChildren(dealSummary(view, deal, deal.totals));
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn primary";
    button.dataset.summaryContinue = "";
    button.textContent = last ? gettext("See the result") : gettext("Next deal");
    this.els.summaryActions.replaceChildren(button);
    return new Promise((resolve) => {
      const done = () => { this.els.summary.close(); resolve(); };
      button.addEventListener("click", done, { once: true });
      this.els.summary.addEventListener("cancel", (e) => { e.preventDefault(); done(); }, { once: true });
      this.els.summary.showModal();
      button.focus();
    });
  }

  // The daily page's share card, filled once the server has ranked the attempt (made once:
  // the result may be shown twice, after the last move's animation and on load).
  dailyShareBox() {
    if (this.shareCard) return this.shareCard;
    const box = this.shareCard = shareBox();
    box.hidden = true;
    api.dailyOf(this.view.daily).then((daily) => {
      const result = daily.attempt.result;
      if (!result) return;
      box.hidden = false;
      return fillShareBox(box, shareLines(daily, result, dealSymbols(this.view)));
    }).catch(() => {});  // no card then: the daily page has it too
    return box;
  }

  showResult() {
    const v = this.view;
    this.els.summaryTitle.textContent = gettext("The game is over");
    const body = [resultTable(v, v.result)];
    const mine = Array.isArray(v.result) ? v.result.find((r) => r.seat === v.you) : v.result;
    if (mine?.place) {
      const p = document.createElement("p");
      p.className = "summary-lead";
      p.textContent = format(gettext("You finished in place %(place)s with %(contracts)s and %(points)s."),
        { place: mine.place, contracts: counts.contracts(mine.contracts), points: counts.penaltyPoints(mine.penalty) });
      body.unshift(p);
    }
    if (v.mode === "daily") body.push(this.dailyShareBox());
    this.els.summaryBody.replaceChildren(...body);
    const links = [
      ["/", gettext("Play again")],
      ["/leaderboard/", gettext("Leaderboard")],
    ].map(([href, text]) => { const a = document.createElement("a"); a.className = "btn"; a.href = href; a.textContent = text; return a; });
    const close = document.createElement("button");
    close.type = "button";
    close.className = "btn";
    close.textContent = gettext("Look at the table");
    close.addEventListener("click", () => this.els.summary.close());
    this.els.summaryActions.replaceChildren(...links, close);
    if (!this.els.summary.open) this.els.summary.showModal();
    links[0].focus();
  }
}

function levelName(level) {
  return { easy: gettext("easy"), normal: gettext("normal"), hard: gettext("hard") }[level] || level || "";
}
