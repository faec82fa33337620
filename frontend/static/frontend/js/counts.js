// Counts in words with the right plural for the page's language (ngettext: Spanish has two
// forms, Thai one): "1 contract" / "2 contracts". Each call is spelled out in full so that
// makemessages finds the strings.
import { format, ngettext } from "./i18n.js";

export const contracts = (n) => format(ngettext("%(n)s contract", "%(n)s contracts", n), { n });
export const contractsDone = (n) =>
  format(ngettext("%(n)s contract done", "%(n)s contracts done", n), { n });
export const penaltyPoints = (n) =>
  format(ngettext("%(n)s penalty point", "%(n)s penalty points", n), { n });
export const cards = (n) => format(ngettext("%(n)s card", "%(n)s cards", n), { n });
export const days = (n) => format(ngettext("%(n)s day", "%(n)s days", n), { n });
export const people = (n) => format(ngettext("%(n)s person", "%(n)s people", n), { n });
