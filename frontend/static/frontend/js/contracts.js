// Contracts in the player's language, from the API's {rung, melds: [{kind, min_cards}]}.
import { format, gettext } from "./i18n.js";

const WORDS = {
  "group:1": gettext("one group of %(size)s"), "group:2": gettext("two groups of %(size)s"),
  "group:3": gettext("three groups of %(size)s"), "run:1": gettext("one run of %(size)s"),
  "run:2": gettext("two runs of %(size)s"), "run:3": gettext("three runs of %(size)s"),
};

export function describeContract(contract) {
  if (!contract) return "";
  const counts = new Map();
  for (const m of contract.melds) {
    const key = `${m.kind}:${m.min_cards}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const parts = [];
  for (const [key, count] of counts) {
    const [kind, size] = key.split(":");
    parts.push(format(WORDS[`${kind}:${count}`] || `${count} × ${kind} ${size}`, { size: Number(size) }));
  }
  return parts.join(gettext(" and "));
}

export function describeRequirement(req) {
  const text = req.kind === "group" ? gettext("a group of %(n)s") : gettext("a run of %(n)s");
  return format(text, { n: req.min_cards });
}
