"""Project-level error views: the API's paths answer in the API's JSON error shape.

Django calls these (only when ``DEBUG`` is false) for URLs no route matches and for
exceptions that escape a view. Pages outside ``/api/`` keep Django's own responses.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from ladder.api import error_body

API_PREFIX = "/api/"


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body("not_found", "Not found."), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body("server_error", "Internal Server Error"), status=500)
    return defaults.server_error(request)
