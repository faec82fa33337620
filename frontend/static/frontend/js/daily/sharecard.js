// The daily's spoiler-free share card, the same on the daily page and in the table's
// end-of-game dialog: text lines (date, result, one square per deal, the day's commitment,
// the daily's address) and a 1200x630 picture of them (a link preview's size).
import * as counts from "../counts.js";
import { date, format, gettext, lang } from "../i18n.js";

// The commitment's first hex digits: enough to tell one day's from another's at a glance
// (2^64 of them); the daily page shows it whole, beside the seed once revealed.
const SHARED_HASH_DIGITS = 16;

// One symbol per deal: 🟨 went out, 🟩 laid the contract down, ⬜ neither.
export function dealSymbols(view) {
  return (view.deals || []).map((d) => (d.went_out === view.you ? "🟨" : d.climbed[view.you] ? "🟩" : "⬜")).join("");
}

// daily: GET /daily/{date}'s answer; result: its attempt's result; symbols: dealSymbols().
export function shareLines(daily, result, symbols) {
  return [
    format(gettext("Ladder Rummy daily %(date)s"), { date: date(daily.date) }),
    format(gettext("🪜 %(contracts)s/10 contracts · %(points)s · place %(place)s"),
      { contracts: result.contracts, points: counts.penaltyPoints(result.penalty), place: result.place }),
    symbols,
    format(gettext("Commitment %(hash)s"), { hash: `${daily.commitment.slice(0, SHARED_HASH_DIGITS)}…` }),
    `${location.origin}/daily/`,
  ];
}

const FONT = '"Ladder Thai", system-ui, sans-serif';
const SQUARE = { "🟨": "#ffd166", "🟩": "#57c27a", "⬜": "#c9d6cf" };

// The picture as a data URL. The squares are drawn, not emoji, which depend on the drawing
// machine's fonts; Thai text waits for the site's Thai font.
async function shareImage(lines) {
  const [title, summary, symbols, commitment, address] = lines;
  if (lang === "th" && document.fonts) {
    await Promise.all(["400", "700"].map((w) => document.fonts.load(`${w} 40px ${FONT}`, title + summary)))
      .catch(() => {});
  }
  const canvas = document.createElement("canvas");
  canvas.width = 1200;
  canvas.height = 630;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#0d3b2e";
  ctx.fillRect(0, 0, 1200, 630);
  ctx.textBaseline = "top";
  const write = (text, x, y, px, { weight = "400", colour = "#f4f1e6", family = FONT } = {}) => {
    let size = px;
    do { ctx.font = `${weight} ${size}px ${family}`; size -= 1; } while (ctx.measureText(text).width > 1200 - 2 * x && size > 12);
    ctx.fillStyle = colour;
    ctx.fillText(text, x, y);
  };
  write(title, 64, 60, 56, { weight: "700" });
  write(summary.replace(/^\S+\s/u, ""), 64, 150, 44);
  [...symbols].forEach((symbol, i) => {
    ctx.fillStyle = SQUARE[symbol] || SQUARE["⬜"];
    ctx.fillRect(64 + i * 104, 240, 88, 88);
  });
  const hash = commitment.slice(commitment.lastIndexOf(" ") + 1);
  write(commitment.slice(0, commitment.lastIndexOf(" ")), 64, 380, 28, { colour: "#c9d6cf" });
  write(hash, 64, 420, 40, { family: "ui-monospace, monospace", colour: "#ffd166" });
  write(address, 64, 550, 30, { colour: "#c9d6cf" });
  return canvas.toDataURL("image/png");
}

// An empty card, as the daily page's template writes it (frontend/daily.html).
export function shareBox() {
  const box = document.createElement("section");
  box.className = "share";
  const h = document.createElement("h3");
  h.textContent = gettext("Share your daily");
  const text = document.createElement("textarea");
  text.readOnly = true;
  text.rows = 5;
  text.setAttribute("aria-label", gettext("Share text"));
  text.dataset.shareText = "";
  const actions = document.createElement("p");
  actions.className = "share-actions";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "btn";
  copy.textContent = gettext("Copy text");
  copy.dataset.shareCopy = "";
  const download = document.createElement("a");
  download.className = "btn";
  download.textContent = gettext("Download image");
  download.download = "ladder-rummy-daily.png";
  download.dataset.shareDownload = "";
  actions.append(copy, download);
  const img = document.createElement("img");
  img.className = "share-image";
  img.alt = "";
  img.width = 600;
  img.height = 315;
  img.dataset.shareImage = "";
  box.append(h, text, actions, img);
  return box;
}

// Fills a card (shareBox(), or the daily page's) with the lines, and draws its picture.
export async function fillShareBox(box, lines) {
  const text = lines.join("\n");
  const area = box.querySelector("[data-share-text]");
  area.value = text;
  const copy = box.querySelector("[data-share-copy]");
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); copy.textContent = gettext("Copied"); }
    catch { area.select(); }
  });
  const png = await shareImage(lines);
  box.querySelector("[data-share-download]").href = png;
  const img = box.querySelector("[data-share-image]");
  img.src = png;
  img.alt = text;
}
