// The table's one source of truth: the latest GameView from the server, its version, and how
// far this browser has shown the game (kept across reloads, so a reload never plays again
// what the player already watched). Every way news arrives goes through `sync`: the page
// loading, a frame on the game's socket, a 409 from another tab's move, a socket that
// reconnects. The action answer goes through `accept`.
import * as api from "../api.js";

export class GameStore {
  constructor(gameId) {
    this.gameId = gameId;
    this.view = null;
    this.shownKey = `ladder.shown.${gameId}`;
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
  }

  // The server's game and its current deal's log, read together. Returns
  // {view, log, before, news, quietThrough}: `news` are the events after `before` to show
  // one by one (those up to `quietThrough` were shown already and pass without a pause), or
  // none when they do not follow on from it: then the view is shown as it is, and the log
  // rebuilt from `log.events`. `before` is the store's own view, or on a first load the view
  // as the player last acted in it (`log.before`), so a page opened mid-turn still shows
  // the computer players' moves it has not shown yet.
  async sync() {
    const [view, log] = await Promise.all([
      api.game(this.gameId), api.dealLog(this.gameId).catch(() => null)]);
    const events = log && log.version === view.version ? log.events : [];
    let before = this.view;
    if (!before && log && view.phase !== "finished") before = log.before;
    const from = before ? before.version : view.version;
    const quietThrough = Math.max(from, this.shownVersion);
    let news = events.filter((e) => e.v > from);
    // The events must follow on from `before`: the first is the next action's, in the same
    // deal (the log starts at a deal's start, so a deal's last moves may be missing).
    const follows = news.length && news[0].v === from + 1 && (news[0].t ?? news[0].type) !== "deal_started";
    if (!follows || quietThrough >= view.version) { before = null; news = []; }
    return { view, log, before, news, quietThrough };
  }
}
