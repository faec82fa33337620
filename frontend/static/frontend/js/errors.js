// Why an action is not allowed, in plain words, keyed by the API's stable error codes.
import { format, gettext } from "./i18n.js";

const MESSAGES = {
  not_your_turn: gettext("It is not your turn."),
  already_drawn: gettext("You have already drawn this turn."),
  draw_first: gettext("Draw a card first, from the stock or the discard pile."),
  card_not_in_hand: gettext("That card is not in your hand."),
  discard_pile_empty: gettext("The discard pile is empty."),
  no_discard_left: gettext("That would leave you only the card you took from the discard pile, which you may not discard."),
  already_laid_down: gettext("You have already laid your contract down in this deal."),
  contract_not_held: gettext("Your hand does not hold your contract yet: lay down when it does."),
  not_the_contract: gettext("Those melds are not your contract: lay down exactly the melds it asks for, no more and no fewer."),
  contract_not_laid_down: gettext("You may lay off only after laying your contract down."),
  lay_off_same_turn: gettext("You may lay off only on a turn after the one in which you laid your contract down."),
  no_such_meld: gettext("There is no such meld on the table."),
  does_not_fit: gettext("That card does not fit that meld: a group takes its rank, a run the next card at either end."),
  choose_end: gettext("That card fits both ends of the run: choose the low or the high end."),
  discard_taken_card: gettext("You may not discard the card you took from the discard pile this turn (nor its twin)."),
  meld_needs_two_naturals: gettext("Every meld needs at least two cards that are not jokers."),
  group_too_short: gettext("A group needs at least three cards."),
  not_a_meld: gettext("These cards are neither a group (one rank) nor a run (one suit)."),
  run_too_short: gettext("A run needs at least four cards."),
  run_not_consecutive: gettext("A run's cards must follow one another in order, ace low or high, with no wrap-around; a joker may fill a gap."),
  game_over: gettext("The game is over."),
  network: gettext("The server could not be reached. Check your connection and try again."),
  throttled: gettext("Too many requests: wait a moment and try again."),
  not_found: gettext("This game was not found. It may belong to another browser."),
  server_error: gettext("Something went wrong on our side. Try again."),
  select_one: gettext("Select one card first."),
  no_target: gettext("That card fits no meld on the table."),
  invalid_name: gettext("A name has 2 to 24 letters, digits, spaces and - _ . ', at least two of them letters or digits, and no invisible characters."),
  reserved_name: gettext("That name is reserved (it looks like staff's or a computer player's): choose another."),
  invalid_username: gettext("A username has 3 to 30 letters, digits and @ . + - _ only."),
  username_taken: gettext("That username is taken: choose another."),
  already_registered: gettext("This identity already has an account."),
  invalid_credentials: gettext("Wrong username or password."),
  invalid_transfer_code: gettext("No such code, or it has expired or been used. Make a new one on the other browser."),
  no_identity: gettext("This browser has no identity yet (or it moved to another browser): start a game or choose a name."),
};

// The rule of a refusal the page makes itself, before asking the server (controllers/game.js
// refuse()); the API's errors carry their own rule.
const LOCAL_RULES = {
  not_your_turn: "R1", already_drawn: "R13", draw_first: "R13", no_discard_left: "R17",
  already_laid_down: "R14", contract_not_held: "R14", contract_not_laid_down: "R15",
  lay_off_same_turn: "R15", does_not_fit: "R15", no_target: "R15", discard_taken_card: "R16",
};

// {text, rule} for an ApiError or a local code.
export function explain(codeOrError) {
  const code = typeof codeOrError === "string" ? codeOrError : codeOrError.code;
  const rule = typeof codeOrError === "object" ? codeOrError.rule || null : LOCAL_RULES[code] || null;
  const text = MESSAGES[code] || (typeof codeOrError === "object" && codeOrError.message) || gettext("That is not allowed.");
  return { text, rule };
}

export function showMessage(el, codeOrError, kind = "error") {
  const { text, rule } = explain(codeOrError);
  el.replaceChildren();
  el.classList.remove("error", "info"); // keeps the element's own classes (e.g. "status")
  el.classList.add("message", kind);
  el.append(text);
  if (rule) {
    const a = document.createElement("a");
    a.href = `/rules/#${rule}`;
    a.target = "_blank";
    a.textContent = format(gettext("rule %(rule)s"), { rule });
    el.append(" (", a, ")");
  }
}

export function showInfo(el, text) {
  el.classList.remove("error");
  el.classList.add("message", "info");
  el.textContent = text;
}
