"""JSON through orjson: the API's answers, and the JSON columns (a game's snapshot, its log).

``json.dumps`` with django-ninja's encoder was 4.6 % of an action's CPU in the server process,
and the snapshot's ``json.loads`` and ``json.dumps`` on its way from and to PostgreSQL 3.5 %
(py-spy); orjson does the same work in C (counted: 10.64 -> 9.76 M
instructions an action, bench/action_instructions.py). The values are those the
standard library writes and reads: what orjson does not write as Django would is handed to
django-ninja's encoder's ``default`` (datetimes, which Django writes with milliseconds and
``Z``; dates and times; Decimals; lazy translations; pydantic models), and keys that are not
strings become strings, as ``json.dumps`` makes them. The text differs in whitespace and in
non-ASCII characters written as UTF-8 rather than ``\\u`` escapes. Where orjson differs from
the standard library, no value of ours goes (the snapshot holds ints, short strings, lists and
dicts): NaN and infinities become null, integers beyond 64 bits and lone surrogates raise,
an ``Enum`` is written as its value and a dataclass as an object.

Measured again against the stock parts (django-ninja's ``JSONRenderer``, ``JSONField`` with
the standard library): an action 14.39 M instructions with this module, 15.14 M without
(+5.2 %, ``bench/action_instructions.py --actions 100 --warmup 20 --games 5``): under the
10 % bar, so it is due to go back to stock, with a migration for the columns
(docs/performance.md, "Stock parts and replacements").
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.http import HttpRequest
from ninja.renderers import BaseRenderer
from ninja.responses import NinjaJSONEncoder

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS
_default = NinjaJSONEncoder().default


def dumps(data: Any, options: int = 0) -> bytes:
    return orjson.dumps(data, default=_default, option=_OPTIONS | options)


class OrjsonRenderer(BaseRenderer):
    """django-ninja's renderer for every answer of the API."""

    media_type = "application/json"

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> bytes:
        return dumps(data)


class ColumnEncoder(json.JSONEncoder):
    """A ``JSONField``'s ``encoder``: Django hands it to ``json.dumps`` (``cls=``) for every
    value it writes, on PostgreSQL and SQLite alike."""

    def encode(self, o: Any) -> str:
        # The admin's form asks for sorted keys (and the standard library's indent).
        return dumps(o, (orjson.OPT_SORT_KEYS if self.sort_keys else 0)
                     | (orjson.OPT_INDENT_2 if self.indent else 0)).decode()


class ColumnDecoder(json.JSONDecoder):
    """A ``JSONField``'s ``decoder``: Django hands it to ``json.loads`` (``cls=``)."""

    def decode(self, s: str, *args: Any) -> Any:
        return orjson.loads(s)
