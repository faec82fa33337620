"""The pages' 404s: one template (frontend/templates/frontend/not_found.html), the words of
each kind of thing that was not found, and the way on from it."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Missing:
    heading: Promise
    text: Promise
    way_on: str  # a URL name
    way_on_label: Promise
    fragment: str = ""  # after the way on's URL, e.g. "#friends"
    title: Promise | None = None  # the window's title; the heading when None


GAME = Missing(
    _("Game not found"),
    _("There is no game at this address in this browser. It may belong to another browser or "
      "player, or the link may be mistyped."),
    "frontend:home", _("Back to the home page"))
LEAGUE = Missing(
    _("League not found"),
    _("There is no league at this address for this browser. Only a league's members can open "
      "it: ask a member for its join link."),
    "frontend:leagues", _("Your leagues"))
TABLE = Missing(
    _("Table not found"),
    _("There is no table at this address for this browser. Only the people sitting at a table "
      "can open it: ask one of them for its link or code."),
    "frontend:home", _("Play with friends"), fragment="#friends")
PLAYER = Missing(
    _("Player not found"), _("There is no player at this address on the boards."),
    "frontend:leaderboard", _("Leaderboard"), title=_("Player"))


def not_found(request: HttpRequest, page: str, missing: Missing) -> HttpResponse:
    """The 404 page for ``missing``; ``page`` marks the menu's entry, as on the page itself."""
    return render(request, "frontend/not_found.html", {"page": page, "missing": missing},
                  status=404)
