"""The expert's review of a game in words: the summary the replay page shows above the table.

The summary is written here, on the server, so that it is in the page's first paint (it is
the page's largest text: drawn after the replay's JSON it held the largest paint back to
3.5 s on Lighthouse's throttled phone). The marks' notes, which change as the replay steps,
stay in the browser (js/views/marks.js); the phrases shared by both are the same msgids in
the two catalogues, and tests/browser/test_review_words.py holds the two ``difference`` to the
same words for every kind of mark in every language.
"""

from __future__ import annotations

import math

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# The suits' signs, as the cards show them (the rules page's examples use them too).
GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def short_name(card_id: str) -> str:
    """"K♠" for "KS.1", as the cards show it (the browser's cards.js shortName)."""
    face = card_id.split(".")[0]
    return _("joker") if face == "JK" else face[:-1] + GLYPHS[face[-1]]


def _percent(fraction: float, decimals: int = 0) -> str:
    """83 %, as the browser's Intl percent: whole points, or to one decimal where given."""
    points = fraction * 100
    value = math.floor(points + 0.5) if decimals == 0 else round(points, decimals)
    if value == int(value):
        value = int(value)
    return _("%(number)s%%") % {"number": number_format(value)}


def difference(mark: dict) -> str:
    """What differed, as a phrase after "Deal 4: " ("you kept K♠ and discarded 5♦")."""
    played, expert = mark["played"], mark["expert"]
    if mark["kind"] == "draw":
        if expert["from"] == "discard":
            return _("you drew from the stock where the expert would take the top discard")
        return _("you took the top discard where the expert would draw from the stock")
    if mark["kind"] == "lay_down":
        return _("you did not lay your contract down")
    if mark["kind"] == "lay_off":
        return _("you did not lay off %(card)s") % {"card": short_name(expert["card"])}
    if played["type"] == "discard":
        return _("you kept %(kept)s and discarded %(thrown)s") % {
            "kept": short_name(expert["card"]), "thrown": short_name(played["card"])}
    if played["type"] == "lay_off":
        return _("you laid off %(played)s where the expert would discard %(card)s") % {
            "played": short_name(played["card"]), "card": short_name(expert["card"])}
    return _("you laid down where the expert would discard %(card)s") % {
        "card": short_name(expert["card"])}


def summary_lines(analysis: dict) -> list[str]:
    """How often you agreed with the expert, the costliest difference (by the expert's
    estimate of the chance to win it gave up; none when no difference cost anything), and how
    many of your turns the computer played for you (left out of the count)."""
    state = analysis["state"]
    if state == "pending":
        return [_("The expert has not reviewed this game yet: it does once the game is over "
                  "(a daily's once its day has ended). Reload in a moment.")]
    if state == "failed":
        return [_("The expert could not review this game, sorry.")]
    if state == "none":
        return [_("This game was over before the expert began to review games.")]
    decisions, agreed = analysis["decisions"], analysis["agreed"]
    left_out = _left_out(analysis.get("bot_turns", 0))
    if not decisions:
        return [_("You made no decision the expert could review."), *left_out]
    lines = [_("You agreed with the expert on %(percent)s of your decisions "
               "(%(agreed)s of %(decisions)s).") % {
        "percent": _percent(agreed / decisions), "agreed": agreed, "decisions": decisions}]
    if analysis["costliest"] is not None:
        mark = analysis["marks"][analysis["costliest"]]
        lines.append(_("The costliest difference: deal %(deal)s, %(difference)s (about "
                       "%(points)s of your chance to win, by the expert's estimate).") % {
            "deal": mark["deal"], "difference": difference(mark),
            "points": _percent(mark["cost"], decimals=1)})
    return lines + left_out


def _left_out(turns: int) -> list[str]:
    """The turns a bot played for the person (their timer ran out, they were away, they had
    left): not theirs, so not judged; said, so that the count above is not read as all."""
    if not turns:
        return []
    return [ngettext("%(count)s turn the computer played for you is not counted.",
                     "%(count)s turns the computer played for you are not counted.",
                     turns) % {"count": number_format(turns)}]
