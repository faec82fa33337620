// UTC days and ISO weeks as the API writes them ("2026-12-03", "2026-W49"), for the pages
// that move between days: the day page, the leaderboard, a player's history.
const DAY_MS = 86400000;

export function today() {
  return new Date().toISOString().slice(0, 10);
}

export function isDay(text) {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text || "") && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
    && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}

export function addDays(day, n) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

// The ISO week of a day, as "2026-W48".
export function weekOf(day) {
  const t = new Date(`${day}T00:00:00Z`);
  const weekday = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - weekday);
  const start = Date.UTC(t.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((t - start) / DAY_MS + 1) / 7);
  return `${t.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

// The Monday of an ISO week "YYYY-Www" as a day, or null for a week the calendar lacks.
export function mondayOf(week) {
  const match = /^([0-9]{4})-W([0-9]{2})$/.exec(week || "");
  if (!match) return null;
  const [year, number] = [Number(match[1]), Number(match[2])];
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const monday = addDays(jan4.toISOString().slice(0, 10), -((jan4.getUTCDay() || 7) - 1) + (number - 1) * 7);
  return weekOf(monday) === week ? monday : null;
}

export const dayHref = (day) => `/daily/${day}/`;
export const replayHref = (gameId) => `/replay/${encodeURIComponent(gameId)}/`;
export const playerHref = (playerId) => `/players/${encodeURIComponent(playerId)}/`;
