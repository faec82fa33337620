// The server's lists in the page's language (games.lists, worded by frontend/lists.py): the
// page carries them as JSON, base.html's "lists" on every page and "reasons" where the expert's
// reasons show (the table, the replay), so the codes, their order and their words are the
// server's and nothing here repeats them.
function read(id, empty) {
  const el = globalThis.document?.getElementById(id);
  return el ? JSON.parse(el.textContent) : empty;
}

const lists = read("lists", { reactions: [], levels: [], turn_seconds: [] });

// [{code, word}] in the order the bar shows them.
export const REACTIONS = lists.reactions;
// [{code, word, default}]: the computer players' levels.
export const LEVELS = lists.levels;
// reason code -> its sentence (games.bots.advice).
export const REASONS = read("reasons", {});

const levelWords = Object.fromEntries(LEVELS.map(({ code, word }) => [code, word]));
export const levelWord = (code) => levelWords[code];
const reactionWords = Object.fromEntries(REACTIONS.map(({ code, word }) => [code, word]));
export const reactionWord = (code) => reactionWords[code];
