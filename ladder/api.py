"""The HTTP API root: ``/api/v1/``, OpenAPI at ``/api/v1/openapi.json``, docs at ``/api/v1/docs``.

Wiring only: the apps' routers are mounted here, plus the health check and the error
handlers. Every error the API returns has one JSON shape::

    {"error": {"code": "stale_version", "message": "...", "rule": "R16"}}

``code`` is stable and machine-readable, ``message`` is for people, ``rule`` (optional)
cites RULES.md. An ``HttpError`` (or subclass) may carry ``code`` and ``rule``
attributes; otherwise the code is derived from the status. No client input may
produce a 500 HTML page: unexpected exceptions are logged and answered with JSON.
"""

import logging
from http import HTTPStatus

from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema, Status
from ninja.errors import HttpError, Throttled, ValidationError

from games.api import router as games_router
from games.api_accounts import router as accounts_router
from games.api_daily import router as daily_router
from games.fastjson import OrjsonRenderer
from ladder.middleware import DATABASE_DOWN_ERRORS, database_unavailable_response
from leaderboards.api import router as leaderboards_router

logger = logging.getLogger(__name__)

STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    422: "invalid_request",
    429: "throttled",
}


def error_body(code: str, message: str, rule: str | None = None, **extra) -> dict:
    """The API's error document: ``{"error": {"code", "message", "rule"?, ...}}``."""
    error = {"code": code, "message": message}
    if rule:
        error["rule"] = rule
    error.update(extra)
    return {"error": error}


def _validation_error(request: HttpRequest, exc: ValidationError, api: NinjaAPI) -> HttpResponse:
    details = [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type", "")}
        for e in exc.errors
    ]
    if details:
        first = details[0]
        where = ".".join(str(part) for part in first["loc"])
        message = f"{where}: {first['msg']}" if where else first["msg"]
    else:
        message = "The request is not valid."
    body = error_body("invalid_request", message, details=details)
    return api.create_response(request, body, status=422)


def _http_error(request: HttpRequest, exc: HttpError, api: NinjaAPI) -> HttpResponse:
    status = exc.status_code
    code = getattr(exc, "code", None) or STATUS_CODES.get(status, f"http_{status}")
    body = error_body(code, exc.message, getattr(exc, "rule", None))
    response = api.create_response(request, body, status=status)
    if isinstance(exc, Throttled) and exc.wait:
        response["Retry-After"] = str(int(exc.wait))
    return response


def _not_found(request: HttpRequest, exc: Http404, api: NinjaAPI) -> HttpResponse:
    return api.create_response(request, error_body("not_found", "Not found."), status=404)


def _unexpected(request: HttpRequest, exc: Exception, api: NinjaAPI) -> HttpResponse:
    logger.exception("Unhandled error in %s %s", request.method, request.path)
    body = error_body("server_error", HTTPStatus.INTERNAL_SERVER_ERROR.phrase)
    return api.create_response(request, body, status=500)


def _database_unavailable(request: HttpRequest, exc: Exception, api: NinjaAPI) -> HttpResponse:
    """PostgreSQL unreachable (restart, failover, pool timeout): 503 with Retry-After."""
    logger.warning("Database unavailable in %s %s: %s", request.method, request.path, exc)
    return database_unavailable_response(request)


def install_error_handlers(api: NinjaAPI) -> None:
    """Replace django-ninja's default error responses with the API's error shape."""
    api.add_exception_handler(ValidationError, lambda r, e: _validation_error(r, e, api))
    api.add_exception_handler(HttpError, lambda r, e: _http_error(r, e, api))
    api.add_exception_handler(Http404, lambda r, e: _not_found(r, e, api))
    api.add_exception_handler(Exception, lambda r, e: _unexpected(r, e, api))
    for error in DATABASE_DOWN_ERRORS:
        api.add_exception_handler(error, lambda r, e: _database_unavailable(r, e, api))


api = NinjaAPI(
    title="Ladder Rummy API",
    version="1",
    description="Play Ladder Rummy against computer players. Rules: see the rules page.",
    urls_namespace="api-v1",
    renderer=OrjsonRenderer(),
)
install_error_handlers(api)


class Health(Schema):
    status: str
    database: str


@api.get("/health", response={200: Health, 503: Health}, tags=["meta"], auth=None)
def health(request: HttpRequest):
    """Liveness and database check: 200 when a trivial query succeeds, 503 otherwise."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: database query failed")
        return Status(503, {"status": "error", "database": "error"})
    return Status(200, {"status": "ok", "database": "ok"})


api.add_router("", games_router)
api.add_router("", accounts_router)
api.add_router("", daily_router)
api.add_router("/leaderboards", leaderboards_router)
