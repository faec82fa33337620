"""Project-level error views: the API's paths answer in the API's JSON error shape.

Django calls these (only when ``DEBUG`` is false) for URLs no route matches and for
exceptions that escape a view. Pages outside ``/api/`` keep Django's own responses. (With
``DEBUG`` on, ladder.middleware.ApiErrorShapeMiddleware shapes Django's debug pages.)
"""

from django.http import HttpRequest, HttpResponse
from django.views import defaults

from games.web.errors import error_response
from ladder.middleware import API_PREFIX


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return error_response(404, "Not found.", "not_found")
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return error_response(500, "Internal Server Error", "server_error")
    return defaults.server_error(request)
