// Translation helpers over Django's JavaScript catalog (/jsi18n/, loaded before the modules),
// plus number and date formatting in the page's language.
import { levelWord } from "./lists.js";

const g = globalThis;

export const lang = document.documentElement.lang || "en";
// Numbers and dates follow the page's language in the reader's regional variant when the
// browser names one ("en-GB": "1–7 December 2026", "1 – 7" by newer ICU; plain "en" would
// give "December 1 – 7").
const regional = (globalThis.navigator?.languages || []).find((l) => l.split("-")[0] === lang);
export const locale = regional || lang;

export function gettext(text) {
  return g.gettext ? g.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  return g.ngettext ? g.ngettext(singular, plural, count) : count === 1 ? singular : plural;
}

// A computer player's level (games.lists) in the page's language, as the server words it.
export function levelName(level) {
  return levelWord(level) || level || "";
}

// format("%(name)s has %(n)s", {name, n}): named placeholders, numbers localised.
export function format(text, values) {
  return text.replace(/%\((\w+)\)[sd]/g, (_, key) => {
    const value = values[key];
    return typeof value === "number" ? number(value) : String(value);
  });
}

const numbers = new Intl.NumberFormat(locale);
export function number(n) {
  return numbers.format(n);
}

export function duration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 });
  return `${numbers.format(h)}:${two.format(m)}:${two.format(s)}`;
}

export function date(value, options = { dateStyle: "medium" }) {
  const d = typeof value === "string" ? new Date(value) : value;
  return new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...options }).format(d);
}

// "1–7 December 2026" (or "1 – 7"): a span of days (ISO dates or Dates), in the reader's language.
export function dateRange(start, end, options = { day: "numeric", month: "long", year: "numeric" }) {
  const [a, b] = [start, end].map((v) => (typeof v === "string" ? new Date(v) : v));
  return new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...options }).formatRange(a, b);
}
