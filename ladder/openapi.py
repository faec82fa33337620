"""The published document's statement of the rate limits (docs/api.md, "Rate limits").

django-ninja writes each operation from its view; :class:`LimitedOpenAPISchema` adds what an
operation's limits mean for a client, from the operation's own throttles
(games.web.throttles.Throttle) and from the ``x-rate-limits`` an operation that counts by hand
lists in its ``openapi_extra`` (``POST /account/login``):

- ``x-rate-limits``: each limit's policy name, quota, window in seconds, whom it counts, and
  the setting that changes it, at the rates this server runs with (a limit turned off is
  left out);
- a 429 answer (``throttled``) with ``Retry-After`` and the limits in words;
- the ``RateLimit-Policy`` and ``RateLimit`` header fields on every answer of such an
  operation (ladder.middleware.RateLimitHeadersMiddleware sends them).

Every operation may answer 503 (``unavailable``, with ``Retry-After``) while the database is
away (ladder.middleware.database_unavailable_response): stated here for each, once.
"""

from __future__ import annotations

from ninja.openapi.schema import OpenAPISchema
from ninja.operation import Operation

from games.web.throttles import policy

UNAVAILABLE = ("The service is briefly unavailable (`unavailable`: the database is away; or"
               " `hint_unavailable`): nothing was done. Send it again after `Retry-After`"
               " seconds when it is given.")
HEADERS = {
    "Retry-After": {
        "description": "Whole seconds to wait before sending this request again.",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    },
    "Retry-After-When-Given": {
        "description": "Whole seconds to wait before sending this request again, when known.",
        "schema": {"type": "integer", "minimum": 1},
    },
    "RateLimit-Policy": {
        "description": (
            "The limits this request counts against (IETF draft-ietf-httpapi-ratelimit-headers):"
            ' one item a limit, `"<policy>";q=<quota>;w=<window in seconds>`, e.g.'
            ' `"actions";q=600;w=60`. Absent when no limit counted the request.'),
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": (
            'Where each of those limits stands: `"<policy>";r=<left in this window>;'
            't=<seconds until the window closes>`, e.g. `"actions";r=597;t=42`. A client that'
            " waits `t` seconds once `r` is 0 never meets a 429."),
        "schema": {"type": "string"},
    },
}
HEADER_REF = "#/components/headers/{name}"


def _ref(name: str) -> dict:
    return {"$ref": HEADER_REF.format(name=name)}


def _period(seconds: int) -> str:
    for unit, name in ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second")):
        if seconds % unit == 0:
            count = seconds // unit
            return f"a {name}" if count == 1 else f"{count} {name}s"
    raise AssertionError(seconds)  # pragma: no cover (a whole number of seconds)


def limits_of(operation: Operation, declared: list[dict]) -> list[dict]:
    """The operation's limits in force: its throttles', then those it declared by hand."""
    found = [throttle.policy() for throttle in operation.throttle_objects
             if hasattr(throttle, "policy")]
    found += [policy(given["policy"], given["per"]) for given in declared]
    return [limit for limit in found if limit is not None]


def in_words(limits: list[dict]) -> str:
    said = "; ".join(f"at most {limit['quota']} in {_period(limit['window'])} per {limit['per']}"
                     f" (`{limit['policy']}`, {limit['setting']})" for limit in limits)
    return (f"Too many requests (`throttled`): {said}. Nothing was done; send it again after"
            " `Retry-After` seconds. `RateLimit` on every answer says how many are left.")


class LimitedOpenAPISchema(OpenAPISchema):
    """The document django-ninja writes, with each operation's limits stated (see the module's
    docstring)."""

    def operation_details(self, operation: Operation) -> dict:
        details = super().operation_details(operation)
        responses = details["responses"]
        error = {self.api.renderer.media_type: {"schema": {"$ref": "#/components/schemas/Error"}}}
        responses.setdefault(503, {"description": UNAVAILABLE, "content": error})
        responses[503]["headers"] = {"Retry-After": _ref("Retry-After-When-Given")}
        limits = limits_of(operation, details.pop("x-rate-limits", []))
        if not limits:
            return details
        details["x-rate-limits"] = limits
        fields = {"RateLimit-Policy": _ref("RateLimit-Policy"), "RateLimit": _ref("RateLimit")}
        for answer in responses.values():
            answer["headers"] = {**answer.get("headers", {}), **fields}
        responses[429] = {
            "description": in_words(limits),
            "headers": {"Retry-After": _ref("Retry-After"), **fields},
            "content": error,
        }
        return details

    def get_components(self) -> dict:
        return {**super().get_components(), "headers": HEADERS}
