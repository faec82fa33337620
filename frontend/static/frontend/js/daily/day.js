// A day's page (/daily/YYYY-MM-DD/): the commitment, and once the day is over the seed, what
// the site says was dealt (GET /daily/{date}/deals) and the button that checks both in this
// browser alone (daily/verify.js): SHA-256 of the seed against the commitment, then the ten
// deals re-dealt from the seed against the cards shown here.
import * as api from "../api.js";
import { addDays, dayHref, today } from "../days.js";
import { showMessage } from "../errors.js";
import { date, format, gettext, ngettext } from "../i18n.js";
import { compareDeals, dealsOf, hasWebCrypto, sha256Hex } from "./verify.js";

const root = document.getElementById("day-page");
const $ = (selector) => root.querySelector(selector);
const day = root.dataset.day;
const status = $("[data-status]");
const stateLine = $("[data-day-state]");
const verifyButton = $("[data-verify]");
const MAX_DIFFERENCES_SHOWN = 20;
const GLYPH = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SEAT_NAMES = [gettext("You"), "Ada", "Bruno", "Chiara"];
let served = null; // {seed, commitment, first_dealer, deals} as the API gave them
let shown = []; // per deal: {details, discard: span, hands: [[span]]}, to mark what differs

// "7H.1" -> "7♥"; a joker by name.
function cardText(id) {
  if (typeof id !== "string") return "—";
  if (id.startsWith("JK")) return gettext("joker");
  const face = id.split(".")[0];
  return face.slice(0, -1) + GLYPH[face.slice(-1)];
}

function cardSpan(card) {
  const span = document.createElement("span");
  const id = card?.id ?? card;
  span.className = `dealt-card suit-${id?.startsWith("JK") ? "joker" : id?.split(".")[0].slice(-1)}`;
  span.textContent = cardText(id);
  return span;
}

function showNavigation() {
  const link = (selector, target) => {
    const a = $(selector);
    a.href = dayHref(target);
    a.querySelector("[data-label]").textContent = date(target);
    a.hidden = target > today();
  };
  link("[data-day-previous]", addDays(day, -1));
  link("[data-day-next]", addDays(day, 1));
  const when = $("[data-day-date]");
  when.textContent = date(day, { dateStyle: "long" });
  $("[data-day-board]").href = `/leaderboard/?day=${day}`;
}

function showDealt(deals) {
  shown = deals.map((deal) => {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    const discard = cardSpan(deal.discard_top);
    summary.append(format(gettext("Deal %(deal)s · dealer: %(dealer)s · first discard: "),
      { deal: deal.deal, dealer: SEAT_NAMES[deal.dealer] }), discard);
    const list = document.createElement("dl");
    list.className = "dealt-hands";
    const hands = deal.hands.map((hand, seat) => {
      const dt = document.createElement("dt");
      dt.textContent = SEAT_NAMES[seat];
      const dd = document.createElement("dd");
      const spans = hand.map(cardSpan);
      for (const span of spans) dd.append(span, " ");
      list.append(dt, dd);
      return spans;
    });
    details.append(summary, list);
    return { details, discard, hands };
  });
  $("[data-dealt]").replaceChildren(...shown.map((deal) => deal.details));
  $("[data-dealt-box]").hidden = false;
}

function describe(difference) {
  const cards = () => ({ ...difference, expected: cardText(difference.expected), served: cardText(difference.served) });
  switch (difference.what) {
    case "count":
      return format(gettext("The seed makes %(expected)s deals; the site lists %(served)s."),
        { expected: difference.expected, served: difference.served });
    case "first_dealer":
    case "dealer":
      return format(gettext("Deal %(deal)s: the seed makes %(expected)s the dealer; the site says %(served)s."),
        { deal: difference.deal ?? 1, expected: SEAT_NAMES[difference.expected] ?? "?", served: SEAT_NAMES[difference.served] ?? "?" });
    case "discard":
      return format(gettext("Deal %(deal)s, first discard: the seed turns up %(expected)s; the site says %(served)s."), cards());
    default:
      return format(gettext("Deal %(deal)s, hand of %(who)s, card %(n)s: the seed deals %(expected)s; the site says %(served)s."),
        { ...cards(), who: SEAT_NAMES[difference.seat], n: difference.index + 1 });
  }
}

function check(ok, text) {
  const li = document.createElement("li");
  li.className = ok ? "ok" : "bad";
  const mark = document.createElement("span");
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = ok ? "✓ " : "✗ ";
  li.append(mark, text);
  return li;
}

// Opens each deal that differs and marks the cards the seed does not deal there.
function markDifferences(differences) {
  for (const span of root.querySelectorAll(".dealt-card.differs")) span.classList.remove("differs");
  for (const d of differences) {
    const deal = shown[(d.deal ?? 1) - 1];
    if (!deal) continue;
    const span = d.what === "discard" ? deal.discard : d.what === "hand" ? deal.hands[d.seat]?.[d.index] : null;
    span?.classList.add("differs");
    deal.details.open = true;
  }
}

function showVerdict(checks, differences, verified) {
  markDifferences(differences);
  const box = $("[data-verdict]");
  box.classList.toggle("verified", verified);
  box.classList.toggle("failed", !verified);
  $("[data-verdict-line]").textContent = verified
    ? gettext("Verified on this device.")
    : gettext("Not verified: what differs is listed below.");
  $("[data-checks]").replaceChildren(...checks);
  const list = $("[data-differences]");
  const items = differences.slice(0, MAX_DIFFERENCES_SHOWN).map((d) => {
    const li = document.createElement("li");
    li.textContent = describe(d);
    return li;
  });
  if (differences.length > MAX_DIFFERENCES_SHOWN) {
    const li = document.createElement("li");
    li.textContent = format(gettext("…and %(n)s more differences."), { n: differences.length - MAX_DIFFERENCES_SHOWN });
    items.push(li);
  }
  list.replaceChildren(...items);
  list.hidden = items.length === 0;
  box.hidden = false;
  box.focus();
}

async function verify() {
  if (!served) return;
  if (!hasWebCrypto()) {
    showVerdict([check(false, gettext("This browser offers no Web Crypto on this page (it needs a secure https address), so it cannot check here."))], [], false);
    return;
  }
  verifyButton.disabled = true;
  verifyButton.setAttribute("aria-busy", "true");
  try {
    const hash = await sha256Hex(served.seed);
    const committed = hash === served.commitment;
    const mine = await dealsOf(served.seed);
    const differences = [];
    if (mine.firstDealer !== served.first_dealer) {
      differences.push({ what: "first_dealer", deal: 1, expected: mine.firstDealer, served: served.first_dealer });
    }
    differences.push(...compareDeals(mine.deals, served.deals));
    const checks = [
      check(committed, committed
        ? format(gettext("SHA-256 of the seed is the commitment: %(hash)s."), { hash })
        : format(gettext("SHA-256 of the seed is %(hash)s, not the commitment %(commitment)s."), { hash, commitment: served.commitment })),
      check(differences.length === 0, differences.length === 0
        ? gettext("Re-dealt here from the seed, the ten deals give exactly the first dealer, hands and first discards shown below.")
        : format(ngettext("Re-dealt here from the seed, the deals differ from those shown below in %(n)s place (marked).",
          "Re-dealt here from the seed, the deals differ from those shown below in %(n)s places (marked).", differences.length),
        { n: differences.length })),
    ];
    showVerdict(checks, differences, committed && differences.length === 0);
  } catch (error) {
    showMessage(status, error);
  } finally {
    verifyButton.disabled = false;
    verifyButton.removeAttribute("aria-busy");
  }
}

async function load() {
  showNavigation();
  let daily;
  try {
    daily = await api.dailyOf(day);
  } catch (error) {
    stateLine.textContent = error.status === 404
      ? (day > today() ? gettext("That day has not begun.") : gettext("There was no daily deal that day."))
      : gettext("The daily deal could not be loaded.");
    if (error.status !== 404) showMessage(status, error);
    return;
  }
  $("[data-day-commitment]").textContent = daily.commitment;
  $("[data-day-commitment-box]").hidden = false;
  if (!daily.revealed) {
    stateLine.textContent = gettext("This day is still running: its seed stays secret until midnight UTC. The commitment above fixes it already.");
    return;
  }
  $("[data-day-seed]").textContent = daily.seed;
  $("[data-day-seed-label]").hidden = false;
  $("[data-day-seed-box]").hidden = false;
  stateLine.textContent = gettext("This day is over: its seed is revealed, so anyone can check the deal.");
  try {
    // The seed and commitment checked are the ones this page shows, from GET /daily/{date}.
    served = { ...(await api.dailyDeals(day)), seed: daily.seed, commitment: daily.commitment };
  } catch (error) {
    showMessage(status, error);
    return;
  }
  showDealt(served.deals);
  $("[data-verify-box]").hidden = false;
}

verifyButton.addEventListener("click", verify);
load().finally(() => { root.dataset.loaded = ""; });
