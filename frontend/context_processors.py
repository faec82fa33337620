"""Template context for every page."""

from django.conf import settings
from django.http import HttpRequest

from frontend import lists
from games.players.identity import COOKIE_NAME


def player(request: HttpRequest) -> dict:
    """Whether this browser has a player yet: without one, pages skip the API's reads of
    "me" and "my games" (they would answer 401) until the first game creates it."""
    return {"has_player": COOKIE_NAME in request.COOKIES}


def languages(request: HttpRequest) -> dict:
    """The picker's languages, each named in itself ("English", "Español", "ไทย") as
    settings.LANGUAGES spells them: Django's own tag translates the names into the page's
    language ("Inglés")."""
    return {"OWN_LANGUAGE_NAMES": settings.LANGUAGES}


def client_lists(request: HttpRequest) -> dict:
    """The server's lists in the page's language (frontend.lists): callables, so a page that
    does not show a list does not build it."""
    return {"client_lists": lists.for_pages, "client_reasons": lists.reasons}
