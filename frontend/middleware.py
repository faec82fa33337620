"""``?lang=xx`` on any page: a shared link carries its language.

The choice is kept in Django's language cookie, as the picker (``set_language``) keeps it,
and the browser is sent on to the same address without ``lang``: the page then renders in
that language, the next pages follow, and the address left in the bar (and in the picker's
``next``) no longer overrides a later choice. An unknown code is ignored. The API
(``/api/``) takes no language from links.

The redirect goes only to a path of this site (:func:`same_site_location`): a request for
``//evil.example/?lang=es`` (or ``/%2F%2Fevil.example/``, ``/\\evil.example/``) must not
answer ``Location: //evil.example/``, which a browser reads as another site.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.encoding import escape_uri_path
from django.utils.http import url_has_allowed_host_and_scheme

LANG_PARAMETER = "lang"


class LanguageFromLinkMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.codes = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The method and the path first: an API call or a POST does not parse its query.
        if request.method not in ("GET", "HEAD") or request.path_info.startswith("/api/"):
            return self.get_response(request)
        code = request.GET.get(LANG_PARAMETER, "")
        if code not in self.codes:
            return self.get_response(request)
        rest = request.GET.copy()
        del rest[LANG_PARAMETER]
        response = HttpResponseRedirect(
            same_site_location(request.path, rest.urlencode() if rest else ""))
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, code,
            max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE)
        return response


def same_site_location(path: str, query: str = "") -> str:
    """``path`` (decoded, as Django holds it) and ``query`` as a Location that can only name a
    path of this site: leading slashes and backslashes collapse to one slash (browsers read
    ``//host`` and ``/\\host`` as another host), the rest is percent-encoded (a tab, a
    backslash or a space cannot be reinterpreted), and Django's own check must agree, else
    the home page."""
    location = escape_uri_path("/" + path.lstrip("/\\")) + ("?" + query if query else "")
    if (urlsplit(location).netloc or location.startswith(("//", "/\\"))
            or not url_has_allowed_host_and_scheme(location, allowed_hosts=None)):
        return "/"
    return location
