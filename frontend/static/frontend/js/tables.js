// What the pages of tables for friends share: the messages of the tables' error codes, the
// table's socket (news of its seats and games, reactions), the join link, and following the
// table into its next game.
import * as api from "./api.js";
import { explain } from "./errors.js";
import { format, gettext } from "./i18n.js";
import { openSocket } from "./socket.js";

const MESSAGES = {
  invalid_name: gettext("A table's name has 2 to 40 letters, digits, spaces and - _ . ', at least two of them letters or digits."),
  reserved_name: gettext("That name is reserved: choose another."),
  table_full: gettext("Every seat at this table is taken."),
  table_started: gettext("This table's game has started: ask for a seat at the next one."),
  not_enough_people: gettext("A table's game needs two people or more: share its link first."),
  host_only: gettext("Only the table's host can start its game."),
  banned: gettext("This player may not sit at tables."),
  not_found: gettext("No table has that code, or you no longer sit at it. Ask for the link again."),
};

export function tableError(error) {
  return MESSAGES[error.code] || explain(error).text;
}

// A refusal where the name in question is the person's own (their name at the table), not
// the table's.
export function nameError(error) {
  return error.code === "invalid_name" || error.code === "reserved_name" ? explain(error).text : tableError(error);
}

// A table's game by the table's name and the friends at it ("Friday cards, with Bea and
// Chai"), or the table's name alone.
export function tableTitle(tableName, friends) {
  if (!friends.length) return tableName;
  const names = new Intl.ListFormat(document.documentElement.lang || undefined, { type: "conjunction" }).format(friends);
  return format(gettext("%(table)s, with %(names)s"), { table: tableName, names });
}

export const canonicalCode = (text) => text.toUpperCase().replace(/[\s-]/g, "");
export const joinLink = (table) => `${location.origin}/tables/join/${table.code}/`;
export const lobbyPath = (id) => `/tables/${encodeURIComponent(id)}/`;
export const gamePath = (id) => `/play/${encodeURIComponent(id)}/`;

// The table's socket: `onTable` with the table read again after each of its news frames,
// `onReaction` with each reaction ({seat, reaction}). Every opening, the first too, reads
// the table: news sent before the socket joined its group is in that read (a page's own
// first `read()` may have been answered before the socket opened).
export function hearTable(tableId, { onTable, onReaction }) {
  let reading = null, again = false;
  const read = async () => {
    if (reading) { again = true; return; }
    reading = api.table(tableId).then(onTable, (error) => onTable(null, error));
    await reading;
    reading = null;
    if (again) { again = false; read(); }
  };
  const socket = openSocket(`/ws/tables/${encodeURIComponent(tableId)}/`, (message) => {
    if (message?.t === "table") read();
    else if (message?.t === "reaction" && message.data) onReaction?.(message.data);
  }, { onOpen: read });
  return { socket, read };
}

// The table's running game, if it is one this page should go to.
export function runningGame(table) {
  return table?.game && table.game.status === "active" ? table.game : null;
}

// Share the link: the phone's share sheet where there is one, else the clipboard, else the
// field selected for the reader to copy. Returns what happened, for the page to say.
export async function shareLink(table, field) {
  const url = joinLink(table);
  if (navigator.share) {
    try {
      await navigator.share({ title: table.name, text: gettext("Sit at my Ladder Rummy table:"), url });
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") return "cancelled";
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return "copied";
  } catch {
    field?.select();
    return "select";
  }
}
