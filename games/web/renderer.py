"""The API's JSON renderer: orjson, as django-ninja's documentation shows it ("ORJSON renderer
example", https://django-ninja.dev/guides/response/response-renderers/).

Every answer under /api/ goes through it, errors included (games.web.errors). The values are
those django-ninja's own renderer writes: what orjson does not write as Django would goes to
ninja's encoder's ``default`` (datetimes, which Django writes with milliseconds and ``Z``;
dates and times; Decimals; lazy translations; pydantic models), and keys that are not strings
become strings. The text differs in whitespace and in non-ASCII characters written as UTF-8
rather than ``\\u`` escapes. It is ninja's documented hook, used as documented, with a
well-kept library; its figure all the same: the game's view written 6.4 µs, 26.8 µs by
ninja's ``JSONRenderer``, 0.3-0.8 % of an action (``bench.parts``, which CI runs): under the
tenth a replacement must earn, kept for now (docs/design.md, "Hand-made parts, and why").
:func:`json_answer` below earns its place on a request of its own: for the large answers (a
replay's, a league's page) it skips ninja's validation and dump of the response model, a
924-action replay's median 70-120 ms against 108-238 ms (``bench.replay``).
"""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from ninja.renderers import BaseRenderer
from ninja.responses import NinjaJSONEncoder

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS
_default = NinjaJSONEncoder().default


def dumps(data: Any) -> bytes:
    return orjson.dumps(data, default=_default, option=_OPTIONS)


class OrjsonRenderer(BaseRenderer):
    """django-ninja's renderer for every answer of the API."""

    media_type = "application/json"

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> bytes:
        return dumps(data)


def json_answer(data: Any) -> HttpResponse:
    """A 200 answer that a view built in the shape its route declares, written by this
    renderer without django-ninja's validation and dump of the response model. For the large
    answers our own code shapes (a replay, a league's page), checking them again cost more
    than building them (issue 40, on a busy host): a 924-action replay's median 70-120 ms
    against 108-238 ms with ninja's dump, the service alone 60-115 ms; a 100-member league's
    page 4.8 ms of CPU, ninja's validation and dump of it 2.1 ms more (``python -m
    bench.replay --samples 20``, ``python -m bench.league --members 100``). The action's
    answer goes through ninja's own: its validation and dump are 0.51 M of an action's 6.60 M
    instructions, under the tenth that a replacement must buy. The
    shapes stay tested: a test per such route validates its answers against the declared
    model, and Schemathesis checks every answer against the OpenAPI document."""
    return HttpResponse(dumps(data), content_type=OrjsonRenderer.media_type)
