"""``?lang=xx`` on any page: a shared link carries its language.

The choice is kept in Django's language cookie, as the picker (``set_language``) keeps it,
and the browser is sent on to the same address without ``lang``: the page then renders in
that language, the next pages follow, and the address left in the bar (and in the picker's
``next``) no longer overrides a later choice. An unknown code is ignored. The API
(``/api/``) takes no language from links.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

LANG_PARAMETER = "lang"


class LanguageFromLinkMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.codes = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = request.GET.get(LANG_PARAMETER, "")
        if (code not in self.codes or request.method not in ("GET", "HEAD")
                or request.path_info.startswith("/api/")):
            return self.get_response(request)
        rest = request.GET.copy()
        del rest[LANG_PARAMETER]
        response = HttpResponseRedirect(
            request.path + ("?" + rest.urlencode() if rest else ""))
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, code,
            max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE)
        return response
