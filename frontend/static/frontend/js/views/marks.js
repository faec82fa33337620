// The post-game analysis in words (GET /api/v1/replays/{id}, "analysis"; docs/api.md): at
// each mark, what you did, what the expert would have done and why (the hint's reasons,
// controllers/hint.js). The game's summary is the server's (frontend/review.py), in the same
// words: tests/browser/test_review_words.py holds difference() to the server's.
import { cardOfId, shortName } from "../cards.js";
import { REASONS } from "../lists.js";
import { format, gettext, locale } from "../i18n.js";

const share = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
const card = (id) => shortName(cardOfId(id));

// What differed, as a phrase that goes after "Deal 4: " ("you kept K♠ and discarded 5♦").
export function difference(mark) {
  const { played, expert } = mark;
  switch (mark.kind) {
    case "draw":
      return expert.from === "discard"
        ? gettext("you drew from the stock where the expert would take the top discard")
        : gettext("you took the top discard where the expert would draw from the stock");
    case "lay_down":
      return gettext("you did not lay your contract down");
    case "lay_off":
      return format(gettext("you did not lay off %(card)s"), { card: card(expert.card) });
    default: // the expert would have discarded
      if (played.type === "discard") {
        return format(gettext("you kept %(kept)s and discarded %(thrown)s"),
          { kept: card(expert.card), thrown: card(played.card) });
      }
      if (played.type === "lay_off") {
        return format(gettext("you laid off %(played)s where the expert would discard %(card)s"),
          { played: card(played.card), card: card(expert.card) });
      }
      return format(gettext("you laid down where the expert would discard %(card)s"), { card: card(expert.card) });
  }
}

// "Deal 4: you kept K♠ and discarded 5♦."
export const markLine = (mark) => format(gettext("Deal %(deal)s: %(difference)s."), { deal: mark.deal, difference: difference(mark) });

// The expert's reason, in the reader's language (the server's English where a code is new).
export const markReason = (mark) => REASONS[mark.reason.code] || mark.reason.message;

// What the move gave up, where the expert's estimate says it gave up something worth saying
// (from a tenth of a point of percentage: below that it is the imagined deals' noise). Below
// 0 the estimate preferred the person's move: the note must not read as the expert's win.
export function markCost(mark) {
  if (mark.cost >= 0.001) {
    return format(gettext("It cost about %(points)s of your chance to win, by the expert's estimate."), { points: share.format(mark.cost) });
  }
  return mark.cost < 0
    ? gettext("By the expert's own estimate, your move was at least as good.")
    : "";
}
