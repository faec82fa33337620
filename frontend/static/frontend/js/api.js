// The one module that talks HTTP to the API (/api/v1/). Writes carry Django's CSRF token.
const BASE = "/api/v1";

export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || `http_${status}`;
    this.rule = error.rule || null;
    this.game = error.game || (body && body.game) || null;
  }
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// Refused with 429, a request waits the server's Retry-After (seconds) and goes again, up to
// RETRIES times; `waiting` hears each wait ({detail: seconds}) so the page can say so.
const RETRIES = 3;
export const waiting = new EventTarget();

export async function request(method, path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(method, path, body);
    } catch (error) {
      if (error.status !== 429 || attempt >= RETRIES) throw error;
      const seconds = Math.min(30, Math.max(1, Number(error.retryAfter) || 1));
      waiting.dispatchEvent(new CustomEvent("wait", { detail: seconds }));
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

async function once(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(BASE + path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { error: { code: "network", message: "The server could not be reached." } });
  }
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = new ApiError(response.status, data);
    error.retryAfter = response.headers.get("Retry-After");
    throw error;
  }
  return data;
}

export const me = () => request("GET", "/me");
export const renameMe = (name) => request("PATCH", "/me", { name });
export const startGame = (mode, level) => request("POST", "/games", { mode, level });
export const myGames = ({ status, mode, limit, offset } = {}) => {
  const query = new URLSearchParams(Object.entries({ status, mode, limit, offset }).filter(([, v]) => v !== undefined && v !== ""));
  const text = query.toString();
  return request("GET", "/games" + (text ? `?${text}` : ""));
};
export const replay = (id) => request("GET", `/replays/${encodeURIComponent(id)}`);
export const game = (id) => request("GET", `/games/${encodeURIComponent(id)}`);
export const act = (id, version, action) =>
  request("POST", `/games/${encodeURIComponent(id)}/actions`, { version, action });
export const imBack = (id) => request("POST", `/games/${encodeURIComponent(id)}/back`, {});
// The results between deals are closed: the break ends once everyone's are (docs/api.md).
export const ready = (id) => request("POST", `/games/${encodeURIComponent(id)}/ready`, {});
export const daily = () => request("GET", "/daily");
export const dailyOf = (day) => request("GET", `/daily/${encodeURIComponent(day)}`);
export const dailyDeals = (day) => request("GET", `/daily/${encodeURIComponent(day)}/deals`);
const page = (limit, after) => `?limit=${limit}` + (after ? `&after=${encodeURIComponent(after)}` : "");
export const dailyBoard = (day, limit, after) =>
  request("GET", `/leaderboards/daily/${encodeURIComponent(day)}${page(limit, after)}`);
export const weekBoard = (week, limit, after) =>
  request("GET", `/leaderboards/week/${encodeURIComponent(week)}${page(limit, after)}`);
export const myHistory = () => request("GET", "/leaderboards/me");
export const playerHistory = (id, days) =>
  request("GET", `/leaderboards/players/${encodeURIComponent(id)}?days=${days}`);
export const dealLog = (id) => request("GET", `/games/${encodeURIComponent(id)}/events`);
export const hint = (id) => request("GET", `/games/${encodeURIComponent(id)}/hint`);
export const register = (username, password) => request("POST", "/account/register", { username, password });
export const logIn = (username, password) => request("POST", "/account/login", { username, password });
export const logOut = () => request("POST", "/account/logout", {});
export const createTransferCode = () => request("POST", "/transfer-codes", {});
export const redeemTransferCode = (code) => request("POST", "/transfer-codes/redeem", { code });
// Friend leagues (/api/v1/leagues: a member's own boards; a code shows only name and size).
const leaguePath = (id) => `/leagues/${encodeURIComponent(id)}`;
export const myLeagues = () => request("GET", "/leagues");
export const createLeague = (name) => request("POST", "/leagues", { name });
export const leaguesToday = () => request("GET", "/leagues/today");
export const leaguePreview = (code) => request("GET", `/leagues/join/${encodeURIComponent(code)}`);
export const joinLeague = (code) => request("POST", `/leagues/join/${encodeURIComponent(code)}`);
export const league = (id) => request("GET", leaguePath(id));
export const renameLeague = (id, name) => request("PATCH", leaguePath(id), { name });
export const deleteLeague = (id) => request("DELETE", leaguePath(id));
export const newLeagueCode = (id) => request("POST", `${leaguePath(id)}/code`);
export const removeMember = (id, playerId) =>
  request("DELETE", `${leaguePath(id)}/members/${encodeURIComponent(playerId)}`);
// Tables for friends (/api/v1/tables: only the people sitting at one see it; a code shows its
// name and how many sit).
const tablePath = (id) => `/tables/${encodeURIComponent(id)}`;
export const openTable = (name, level, turnSeconds) =>
  request("POST", "/tables", { name, level, turn_seconds: turnSeconds });
export const tablePreview = (code) => request("GET", `/tables/join/${encodeURIComponent(code)}`);
export const joinTable = (code, name) => request("POST", `/tables/join/${encodeURIComponent(code)}`, name === undefined ? undefined : { name });
export const table = (id) => request("GET", tablePath(id));
export const startTable = (id) => request("POST", `${tablePath(id)}/start`);
export const leaveTable = (id) => request("POST", `${tablePath(id)}/leave`);
export const react = (id, reaction) => request("POST", `${tablePath(id)}/reactions`, { reaction });
