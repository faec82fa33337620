"""The HTTP API root: ``/api/v1/``, OpenAPI at ``/api/v1/openapi.json``, docs at ``/api/v1/docs``.

Wiring only: the apps' routers are mounted here, plus the health check and the error
handlers. Every error the API returns has one JSON shape::

    {"error": {"code": "stale_version", "message": "...", "rule": "R16"}}

``code`` is stable and machine-readable, ``message`` is for people, ``rule`` (optional)
cites docs/rules.md. The errors are mapped here, once, for every route: a domain's refusal
(``games.web.errors.Refusal``, raised by services and reads) carries its status and code, an
action against the rules (the engine's ``IllegalAction``) is 422 with its rule, a stale
version 409 with the current game; an ``HttpError`` (or subclass) may carry ``code`` and
``rule`` attributes, otherwise the code is derived from the status. No client input may
produce a 500 HTML page: unexpected exceptions are logged and answered with JSON.
"""

import functools
import json
import logging
from http import HTTPStatus

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema, Status
from ninja.errors import HttpError, Throttled, ValidationError
from ninja.operation import Operation
from ninja.parser import Parser

from games.api import router as games_router
from games.api_daily import router as daily_router
from games.engine import IllegalAction
from games.players.api import router as accounts_router
from games.reads import game_view
from games.services import StaleVersion
from games.tables.api import router as tables_router
from games.web.errors import Refusal, code_of, error_body, quote
from games.web.renderer import OrjsonRenderer
from games.web.schemas import FIELD_ERROR_CODES
from ladder import asyncapi
from ladder.middleware import DATABASE_DOWN_ERRORS, database_unavailable_response
from ladder.openapi import LimitedOpenAPISchema
from leaderboards.api import router as leaderboards_router
from leaderboards.leagues.api import router as leagues_router

logger = logging.getLogger(__name__)

DETAILS_MAX = 10  # a validation error lists at most this many problems
MESSAGE_MAX_CHARS = 200


class BodyNotAnObject(ValueError):
    pass


class JsonObjectParser(Parser):
    """django-ninja's JSON parser, refusing a body that is not a JSON object: ninja maps the
    fields of a lone body schema out of whatever was sent, so ``[]`` or ``null`` would pass as
    ``{}``."""

    def parse_body(self, request: HttpRequest) -> dict:
        data = json.loads(request.body)
        if not isinstance(data, dict):
            raise BodyNotAnObject
        return data


def _short(text: str) -> str:
    return text if len(text) <= MESSAGE_MAX_CHARS else text[:MESSAGE_MAX_CHARS] + "…"


def _loc_part(part: object) -> str | int:
    """A location in the request; a key the client chose is quoted short."""
    if isinstance(part, int):
        return part
    text = str(part)
    return text if len(text) <= 32 and text.isprintable() else quote(text)


def _location(loc: tuple) -> tuple:
    """Where in the request, as a client wrote it: django-ninja puts the view's body parameter
    between ``body`` and the field (``body.payload.level``); the client sent ``body.level``."""
    if len(loc) >= 2 and loc[0] == "body":
        return (loc[0], *loc[2:])
    return tuple(loc)


def _validation_error(request: HttpRequest, exc: ValidationError, api: NinjaAPI) -> HttpResponse:
    # Bounded whatever was sent: a few problems, short messages, no input echoed.
    details = [
        {"loc": [_loc_part(part) for part in _location(e.get("loc", ()))],
         "msg": _short(str(e.get("msg", ""))), "type": str(e.get("type", ""))[:64]}
        for e in exc.errors[:DETAILS_MAX]
    ]
    code = "invalid_request"
    if details:
        first = details[0]
        where = ".".join(str(part) for part in first["loc"])
        message = f"{where}: {first['msg']}" if where else first["msg"]
        if first["loc"]:
            code = FIELD_ERROR_CODES.get(first["loc"][-1], code)
    else:
        message = "The request is not valid."
    body = error_body(code, message, details=details)
    return api.create_response(request, body, status=422)


def _http_error(request: HttpRequest, exc: HttpError, api: NinjaAPI) -> HttpResponse:
    if isinstance(exc.__cause__, BodyNotAnObject):  # ninja wraps the parser's refusal
        body = error_body("invalid_request", "The request body must be a JSON object.")
        return api.create_response(request, body, status=422)
    status = exc.status_code
    code = getattr(exc, "code", None) or code_of(status)
    body = error_body(code, _short(str(exc.message)), getattr(exc, "rule", None))
    response = api.create_response(request, body, status=status)
    if isinstance(exc, Throttled) and exc.wait:
        response["Retry-After"] = str(int(exc.wait))
    return response


def _refusal(request: HttpRequest, exc: Refusal, api: NinjaAPI) -> HttpResponse:
    body = error_body(exc.code, exc.message, exc.rule)
    return api.create_response(request, body, status=exc.status)


def _stale(request: HttpRequest, exc: StaleVersion, api: NinjaAPI) -> HttpResponse:
    """409 with the game as it is now, so the client need not read it again."""
    body = {**error_body(exc.code, exc.message), "game": game_view(exc.seated, exc.state)}
    return api.create_response(request, body, status=exc.status)


def _illegal(request: HttpRequest, exc: IllegalAction, api: NinjaAPI) -> HttpResponse:
    """An action the server will not apply (malformed, or against a rule): the game is
    unchanged."""
    body = error_body(exc.code, exc.message, exc.rule)
    return api.create_response(request, body, status=422)


def _not_found(request: HttpRequest, exc: Http404, api: NinjaAPI) -> HttpResponse:
    return api.create_response(request, error_body("not_found", "Not found."), status=404)


def _too_large(request: HttpRequest, exc: RequestDataTooBig, api: NinjaAPI) -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = error_body("body_too_large", f"A request body has at most {limit} bytes.")
    return api.create_response(request, body, status=413)


def _suspicious(request: HttpRequest, exc: SuspiciousOperation, api: NinjaAPI) -> HttpResponse:
    # Django's own request checks (too many fields, a bad Host...): 400, as Django answers.
    body = error_body("bad_request", "The request is malformed.")
    return api.create_response(request, body, status=400)


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
    api.add_exception_handler(Refusal, lambda r, e: _refusal(r, e, api))
    api.add_exception_handler(StaleVersion, lambda r, e: _stale(r, e, api))
    api.add_exception_handler(IllegalAction, lambda r, e: _illegal(r, e, api))
    api.add_exception_handler(RequestDataTooBig, lambda r, e: _too_large(r, e, api))
    api.add_exception_handler(SuspiciousOperation, lambda r, e: _suspicious(r, e, api))
    api.add_exception_handler(Exception, lambda r, e: _unexpected(r, e, api))
    for error in DATABASE_DOWN_ERRORS:
        api.add_exception_handler(error, lambda r, e: _database_unavailable(r, e, api))


def _refs(value) -> set[str]:
    if isinstance(value, dict):
        found = {value["$ref"].rsplit("/", 1)[1]} if isinstance(value.get("$ref"), str) else set()
        return found.union(*(_refs(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_refs(item) for item in value))
    return set()


def defaults_in_words(document: dict) -> dict:
    """What a client sends may leave out a field with a default, so the document says the
    default in the field's description rather than as ``default``: openapi-typescript (by
    default) types a property with a ``default`` as always present, so ``POST /games {}`` would
    not compile. Every schema a request body reaches is so written (LayOff too, which answers
    also carry: there ``end`` is left out when null)."""
    schemas = document.get("components", {}).get("schemas", {})
    todo = set().union(*(_refs(operation.get("requestBody", {}))
                         for path in document.get("paths", {}).values()
                         for operation in path.values() if isinstance(operation, dict)))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo |= _refs(schemas[name])
        for field in schemas[name].get("properties", {}).values():
            if "default" in field:
                default = json.dumps(field.pop("default"))
                said = field.get("description", "").rstrip()
                field["description"] = f"{said} Optional: {default} when left out.".lstrip()
    return document


class LadderApi(NinjaAPI):
    """The NinjaAPI with operation ids that do not move with the code: an endpoint's function
    name (``start_game``, ``get_league``), not django-ninja's default of its module's path
    too, so a client generated from the OpenAPI document keeps its method names when a router
    changes module. tests/games/test_openapi_ids.py keeps them unique."""

    def get_openapi_operation_id(self, operation: Operation) -> str:
        return operation.view_func.__name__

    def get_openapi_schema(self, *, path_prefix: str | None = None,
                           path_params: dict | None = None) -> LimitedOpenAPISchema:
        """The document with every operation's rate limits stated (ladder/openapi.py), and the
        sockets' frames among its schemas (the AsyncAPI document, /api/v1/asyncapi.json,
        refers to them by the same names)."""
        if path_prefix is None:
            path_prefix = self.get_root_path(path_params or {})
        document = asyncapi.add_frame_schemas(LimitedOpenAPISchema(self, path_prefix))
        return defaults_in_words(document)


api = LadderApi(
    title="Ladder Rummy API",
    version="1",
    description="Play Ladder Rummy against computer players. Rules: see the rules page.",
    urls_namespace="api-v1",
    renderer=OrjsonRenderer(),
    parser=JsonObjectParser(),
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


@api.get("/asyncapi.json", include_in_schema=False, auth=None)
def asyncapi_document(request: HttpRequest):
    """The sockets' AsyncAPI 3 document (ladder/asyncapi.py), beside the OpenAPI one."""
    return asyncapi.document(_openapi(), request.get_host(), request.is_secure())


@functools.cache
def _openapi() -> dict:
    return api.get_openapi_schema()


api.add_router("", games_router)
api.add_router("", accounts_router)
api.add_router("", daily_router)
api.add_router("/leaderboards", leaderboards_router)
api.add_router("/leagues", leagues_router)
api.add_router("/tables", tables_router)
