// A finished game's states, version by version, rebuilt in the browser from one answer of
// GET /api/v1/replays/{id}: its events, every card face up. Each state is a GameView as the
// table's views draw it (animator.js's applyEvent keeps it from the events' own facts), plus
// `hands`, every seat's hand, which the replay shows face up.
import { applyEvent } from "./animator.js";

// States kept on the way through the game: a step anywhere replays at most this many
// versions from the nearest one (a ~900-version game keeps ~36 states, not 900).
const KEPT_EVERY_VERSIONS = 25;

// A seat's view of an event, as the engine's Event.for_seat makes it: `data` with its part.
// `bot`: a person's move the computer chose for them (the log says so).
export function eventFor(event, seat) {
  const part = event.private?.find((p) => p.seat === seat);
  return { v: event.v, t: event.t, bot: event.bot, data: part ? { ...event.data, ...part.data } : event.data };
}

// The event as the player who made it saw it (a stock draw names its card): the log's line.
export const openEvent = (event) => eventFor(event, event.data.seat);

export class ReplayStates {
  // contracts: rung -> {rung, description, melds}. The hand in front is the viewer's own seat
  // (`replay.seat`: a friend at a table is not seat 0, the host); a watcher, who sat at none,
  // sees seat 0's and reads every seat by its name (`spectator`).
  constructor(replay, { contracts }) {
    this.replay = replay;
    this.contracts = contracts;
    this.you = replay.seat ?? 0;
    this.spectator = replay.seat === null || replay.seat === undefined;
    this.last = replay.version;
    this.events = Array.from({ length: this.last + 1 }, () => []); // by version
    for (const event of replay.events) this.events[event.v].push(event);
    this.dealStarts = []; // the version at which each deal's cards lie dealt, by deal - 1
    this.kept = new Map();
    const view = this.blank();
    for (let v = 0; v <= this.last; v++) {
      for (const event of this.events[v]) {
        this.apply(view, event);
        if (event.t === "deal_started") this.dealStarts[event.data.deal - 1] = v;
      }
      if (v % KEPT_EVERY_VERSIONS === 0) this.kept.set(v, structuredClone(view));
    }
  }

  // Before the first deal: the players, nobody dealt.
  blank() {
    const r = this.replay;
    return {
      id: r.id, mode: r.mode, level: r.level, daily: r.daily, table_name: r.table_name, status: "finished", version: 0,
      deal: 0, dealer: 0, turn: 0, phase: "draw", you: this.you, spectator: this.spectator,
      hand: [], hands: r.players.map(() => []), table: [], discard_top: null, discard_size: 0,
      stock_size: 0, pile_below: [], deals: [], result: null,
      legal: { draw: [], may_lay_down: false, lay_off: [], discard: [] },
      players: r.players.map((p) => ({
        seat: p.seat, name: p.name, bot: p.bot, rung: 1, climbed: 0,
        contract: this.contracts[1], laid_down: false, hand_size: 0, penalty: 0,
      })),
    };
  }

  // One event, in place: the table's rules for what the viewer's seat sees, and every other
  // hand.
  apply(view, event) {
    const d = event.data;
    applyEvent(view, eventFor(event, view.you));
    const other = d.seat !== undefined && d.seat !== view.you;
    const take = (ids) => {
      const gone = new Set(ids);
      view.hands[d.seat] = view.hands[d.seat].filter((c) => !gone.has(c.id));
    };
    switch (event.t) {
      case "deal_started":
        // Copies: applyEvent adds drawn cards to `view.hand` in place, and the events are
        // applied again from a kept state whenever the viewer steps back.
        view.hands = view.players.map((p) => [...eventFor(event, p.seat).data.hand]);
        view.hand = view.hands[view.you];
        for (const p of view.players) p.contract = this.contracts[p.rung];
        break;
      case "drew":
        if (other) view.hands[d.seat].push(eventFor(event, d.seat).data.card);
        break;
      case "laid_down":
        if (other) take(d.melds.flatMap((m) => m.cards.map((c) => c.id)));
        break;
      case "laid_off":
      case "discarded":
        if (other) take([d.card.id]);
        break;
      default:
        break;
    }
    view.hands[view.you] = view.hand;
    view.version = event.v;
  }

  // The seats whose person had left the game by version `v`: the computer played them since.
  leftBy(v) {
    return new Set(this.replay.players.filter((p) => p.left !== null && p.left !== undefined && p.left <= v).map((p) => p.seat));
  }

  clamp(v) {
    return Math.min(this.last, Math.max(0, Math.trunc(Number(v)) || 0));
  }

  // The state at version `v` (a copy of its own: the caller may change it).
  at(v) {
    v = this.clamp(v);
    const from = v - (v % KEPT_EVERY_VERSIONS);
    const view = structuredClone(this.kept.get(from));
    for (let u = from + 1; u <= v; u++) for (const event of this.events[u]) this.apply(view, event);
    return view;
  }

  // The deal whose cards lie on the table at version `v`.
  dealAt(v) {
    let deal = 1;
    this.dealStarts.forEach((start, i) => { if (start <= v) deal = i + 1; });
    return deal;
  }

  // The log's events at version `v`: the deal's so far. Where a deal has just ended, the
  // ended deal's too, so its last move and who went out stay in view.
  logAt(v) {
    const events = [];
    for (let u = this.logStart(v); u <= v; u++) events.push(...this.events[u]);
    const first = events.findIndex((e) => e.t === "deal_started");
    return events.slice(first);
  }

  // The version the log at version `v` starts from: its deal's start, or the deal before's.
  logStart(v) {
    const deal = this.dealAt(v);
    const start = this.dealStarts[deal - 1];
    return start === v && deal > 1 ? this.dealStarts[deal - 2] : start;
  }
}
