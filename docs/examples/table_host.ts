/* A TypeScript client to copy (docs/api.md, "A bot to copy"), on openapi-typescript's types
 * of the API's document, openapi-fetch and ws (Node 20). It opens a table for friends (bots of
 * the easy level in the empty seats, no turn timer), prints its code, starts the game once
 * PEOPLE people sit (bot.py --join CODE is one), and plays it as bot.py does, on the game
 * socket's frames alone. LOG, if given, is a file for what it sent and heard (JSON lines).
 *
 *   npx openapi-typescript https://HOST/api/v1/openapi.json -o ladder-api.ts
 *   npx tsc --strict --target es2022 --module nodenext table_host.ts  # package.json: "type": "module"
 *   node table_host.js https://HOST [PEOPLE] [LOG]
 */
import { appendFileSync } from "node:fs";
import { on, once } from "node:events";
import createClient, { type Middleware } from "openapi-fetch";
import WebSocket from "ws";
import type { components, paths } from "./ladder-api.js";

type S = components["schemas"];
type GameFrame = S["Event"] | S["TurnTimerFrame"] | S["TimedOutFrame"] | S["AwayFrame"];
type TableFrame = S["TableFrame"] | S["ReactionFrame"];

const [server = "http://127.0.0.1:8000", people = "2", log] = process.argv.slice(2);
const note = (what: object) =>
  log && appendFileSync(log, JSON.stringify({ at: Date.now() / 1000, ...what }) + "\n");
const sleep = (seconds: number) => new Promise((done) => setTimeout(done, seconds * 1000));

// Paces the calls by the answers' RateLimit field ("Rate limits"): once a window's r is 0,
// waits that window's t seconds. Notes every error's code.
const paced: Middleware = {
  async onResponse({ response }) {
    const spent = (response.headers.get("RateLimit") ?? "").matchAll(/r=0;t=(\d+)/g);
    await sleep(Math.max(0, ...[...spent].map((match) => Number(match[1]))));
    if (!response.ok) {
      const body = await response.clone().json().catch(() => null);  // a proxy's page: no JSON
      note({ error: body?.error?.code ?? `http_${response.status}` });
    }
    return response;
  },
};
/** fetch, but a 429 is waited out (its Retry-After) and the call made again. */
async function patient(request: Request): Promise<Response> {
  for (;;) {
    const response = await fetch(request.clone());
    if (response.status !== 429) return response;
    await sleep(Number(response.headers.get("Retry-After") ?? 1));
  }
}
/** An answer's body, or an Error thrown with the answer's code. */
function ok<T>(answer: { data?: T; error?: { error: S["ErrorDetail"] } }): T {
  if (answer.data === undefined) throw new Error(`refused: ${answer.error?.error.code}`);
  return answer.data;
}

const anonymous = createClient<paths>({ baseUrl: server, fetch: patient });
anonymous.use(paced);
const me = ok(await anonymous.POST("/api/v1/players"));
const auth = { Authorization: `Bearer ${me.token}` };  // for the API and the sockets alike
const api = createClient<paths>({ baseUrl: server, headers: auth, fetch: patient });
api.use(paced);

/** A socket (its bearer token in a header: "Who you are"), once it is open, and its frames. */
async function socket<Frame>(path: string, channel: string) {
  const ws = new WebSocket(`${server.replace("http", "ws")}${path}`, { headers: auth });
  const messages = on(ws, "message", { close: ["close"] });
  await once(ws, "open");
  async function* frames() {
    for await (const [message] of messages) {
      const frame = JSON.parse(String(message));
      note({ channel, frame });
      yield frame as Frame;
    }
  }
  return { ws, frames: frames() };
}

function nextAction(legal: S["Legal"]): S["Action"] {
  if (legal.draw.length) return { type: "draw", from: legal.draw.includes("stock") ? "stock" : "discard" };
  return legal.lay_downs[0] ?? legal.lay_off[0] ?? { type: "discard", card: legal.discard[0] };
}

async function read(game_id: string): Promise<S["GameView"]> {
  return ok(await api.GET("/api/v1/games/{game_id}", { params: { path: { game_id } } }));
}

async function moveWhileMyTurn(view: S["GameView"]): Promise<S["GameView"]> {
  note({ read: view.version });
  while (view.status === "active" && view.turn === view.you) {
    const action = nextAction(view.legal);
    note({ sent: view.version, action: action.type });
    const { data, error } = await api.POST("/api/v1/games/{game_id}/actions", {
      params: { path: { game_id: view.id } }, body: { version: view.version, action } });
    if (data) view = data.game;
    else if ("game" in error) view = error.game;  // 409: someone moved first; the news
    else throw new Error(`refused: ${error.error.code} ${error.error.message}`);
  }
  return view;
}

const table = ok(await api.POST("/api/v1/tables", {
  body: { name: "Friday cards", level: "easy", turn_seconds: null } }));
const tableSocket = await socket<TableFrame>(`/ws/tables/${table.id}/`, "table");
console.log(table.code);  // for the friends who sit down
let gameId = "";
for await (const frame of tableSocket.frames) {  // each "table" frame: read the table again
  if (frame.t !== "table") continue;
  const path = { params: { path: { table_id: table.id } } };
  const now = ok(await api.GET("/api/v1/tables/{table_id}", path));
  if (now.seats.filter((seat) => !seat.bot).length < Number(people)) continue;
  gameId = ok(await api.POST("/api/v1/tables/{table_id}/start", path)).game.id;
  break;
}
tableSocket.ws.close();

// Read once the socket is open (what came before is caught up), then only when a frame is
// news and names this client's seat as the next to move.
const game = await socket<GameFrame>(`/ws/games/${gameId}/`, "game");
let view = await moveWhileMyTurn(await read(gameId));
for await (const frame of game.frames) {
  if (frame.t === "game_finished") break;
  const turn = frame.t === "discarded" ? frame.data.turn : frame.t === "deal_started" ? frame.data.first : undefined;
  if (frame.v > view.version && turn === view.you) view = await moveWhileMyTurn(await read(gameId));
}
game.ws.close();
view = await read(gameId);
const place = view.result?.find((seat) => seat.seat === view.you)?.place;
console.log(`game ${view.id} over at version ${view.version}: place ${place}`);
