"""Errors the API answers with, in its one shape (ladder/api.py):
``{"error": {"code", "message", "rule"?}}``, rendered by the API's own JSON renderer
(games.web.renderer) whatever raised them: a view, django-ninja, Django or the ASGI server."""

from __future__ import annotations

from http import HTTPStatus

from django.http import HttpResponse
from ninja.errors import HttpError

from games.web.renderer import dumps

CONTENT_TYPE = "application/json; charset=utf-8"  # what django-ninja's renderer answers with
QUOTE_MAX_CHARS = 24  # a message quotes at most this much of what the client sent

# The code of an error that carries none, by its status.
STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "body_too_large",
    422: "invalid_request",
    429: "throttled",
    500: "server_error",
    503: "unavailable",
}


class Refusal(Exception):
    """A request the domain refuses (a service, a read): answered as ``status`` with ``code``
    and ``message`` in the one error shape by the API's handler (ladder/api.py), whichever
    route raised it, so no route maps its own. A subclass names a refusal that callers tell
    apart (``GameNotFound``); the rest are this class with their status and code."""

    status = 400
    code = "bad_request"
    message = "The request was refused."

    def __init__(self, status: int | None = None, code: str | None = None,
                 message: str | None = None, rule: str | None = None):
        super().__init__(message or self.message)
        self.status = status or self.status
        self.code = code or self.code
        self.message = message or self.message
        self.rule = rule


class ApiError(HttpError):
    """An HTTP error with a stable ``code`` and, where a rule applies, its number."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None):
        super().__init__(status, message)
        self.code = code
        self.rule = rule


def quote(value: object) -> str:
    """A short, printable quotation of client input for a message: ``'abc…'``."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > QUOTE_MAX_CHARS:
        return repr(text[:QUOTE_MAX_CHARS]) + "…"
    return repr(text)


def error_body(code: str, message: str, rule: str | None = None, **extra) -> dict:
    """The API's error document: ``{"error": {"code", "message", "rule"?, ...}}``."""
    error = {"code": code, "message": message}
    if rule:
        error["rule"] = rule
    error.update(extra)
    return {"error": error}


def code_of(status: int) -> str:
    """The code of an error that carries none: its status's, else its class's (every code is
    in the published enum, games.web.schemas.ErrorCode)."""
    return STATUS_CODES.get(status, "server_error" if status >= 500 else "bad_request")


def error_json(status: int, message: str | None = None, code: str | None = None) -> bytes:
    """The bytes of an error document, for answers made outside Django (the ASGI server)."""
    return dumps(error_body(code or code_of(status), message or HTTPStatus(status).phrase + "."))


def error_response(status: int, message: str | None = None, code: str | None = None,
                   rule: str | None = None) -> HttpResponse:
    """An error answer made outside django-ninja (middleware, Django's error views), serialised
    as the API serialises its own."""
    body = error_body(code or code_of(status), message or HTTPStatus(status).phrase + ".", rule)
    return HttpResponse(dumps(body), status=status, content_type=CONTENT_TYPE)


def not_found() -> ApiError:
    # Someone else's game is "not found", never "forbidden": don't confirm it exists.
    return ApiError(404, "not_found", "No such game.")


def no_identity() -> ApiError:
    return ApiError(401, "no_identity", "Who are you? Start a game in this browser, or send "
                                        "'Authorization: Bearer <token>' from POST /players.")


def invalid_token() -> ApiError:
    return ApiError(401, "invalid_token", "That bearer token belongs to no player.")


def csrf_failed() -> ApiError:
    return ApiError(403, "csrf_failed", "The CSRF check failed: send the csrftoken cookie's "
                                        "value in an X-CSRFToken header.")
