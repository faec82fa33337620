"""Every error code the code base can answer is in the published enum (``ErrorDetail.code``,
games.web.schemas.ErrorCode) and in docs/api.md's catalogue, in the row of the status it is
answered with; and the enum holds nothing else. The codes are found in the source itself:
each ``Refusal``, ``ApiError`` and ``IllegalAction`` raised, each refusal class's ``code``,
every ``code=`` given, the error bodies made by hand and the codes by status or field."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

from django.test import Client

from games.web.errors import STATUS_CODES
from games.web.schemas import FIELD_ERROR_CODES, ErrorCode

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [path for folder in ("games", "leaderboards", "ladder")
           for path in sorted((ROOT / folder).rglob("*.py")) if "migrations" not in path.parts]
# Calls whose string argument at this position is an error code, and the status they give.
CODE_AT = {"Refusal": 1, "ApiError": 1, "IllegalAction": 0, "error_body": 0,
           "error_response": 2, "error_json": 2}


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _status(node: ast.AST | None) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _call_name(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", None)


def codes_in_the_source() -> dict[str, set[int | None]]:
    """Each code the source answers with, and the statuses it is given with (None: the
    status is not written beside it)."""
    found: dict[str, set[int | None]] = {}

    def add(code: str | None, status: int | None) -> None:
        if code is not None:
            found.setdefault(code, set()).add(status)

    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                name = _call_name(node)
                if name in CODE_AT and len(node.args) > CODE_AT[name]:
                    status = 422 if name == "IllegalAction" else (
                        _status(node.args[0]) if name in ("Refusal", "ApiError",
                                                          "error_response",
                                                          "error_json") else None)
                    add(_text(node.args[CODE_AT[name]]), status)
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        add(_text(keyword.value), None)
            elif isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if not isinstance(statement, ast.Assign):
                        continue
                    target = statement.targets[0]
                    if isinstance(target, ast.Name) and target.id == "code":
                        add(_text(statement.value), None)
                    elif isinstance(target, ast.Tuple) and isinstance(statement.value, ast.Tuple):
                        names = [getattr(t, "id", None) for t in target.elts]
                        if "code" in names:
                            values = statement.value.elts
                            status = (_status(values[names.index("status")])
                                      if "status" in names else None)
                            add(_text(values[names.index("code")]), status)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args
                defaults = dict(zip([a.arg for a in arguments.args][-len(arguments.defaults):],
                                    arguments.defaults, strict=True)) if arguments.defaults else {}
                add(_text(defaults.get("code")), None)
    for status, code in STATUS_CODES.items():
        add(code, status)
    for code in FIELD_ERROR_CODES.values():
        add(code, 422)
    return found


def catalogue() -> dict[str, set[int]]:
    """docs/api.md's table under "One error shape": each code and the statuses of its rows."""
    text = (ROOT / "docs" / "api.md").read_text()
    table = text.split("| Status | `code` |", 1)[1].split("\n\n", 1)[0]
    rows: dict[str, set[int]] = {}
    for line in table.splitlines()[2:]:
        status, cell = re.match(r"\| (\d{3}) \| (.*) \|$", line).groups()
        for code in re.findall(r"`([a-z_]+)`", cell):
            rows.setdefault(code, set()).add(int(status))
    return rows


def test_every_code_in_the_source_is_in_the_enum_and_the_catalogue_with_its_status():
    source, enum, documented = codes_in_the_source(), set(typing.get_args(ErrorCode)), catalogue()
    assert {"host_only", "banned", "table_full", "unknown_card", "not_your_turn",
            "turn_timed_out", "stale_version", "choose_end", "invalid_name"} <= set(source)
    assert sorted(set(source) - enum) == []
    assert sorted(enum - set(source)) == []  # the enum holds only codes the API answers
    assert sorted(set(source) - set(documented)) == []
    wrong_row = {code: (statuses, documented[code]) for code, statuses in source.items()
                 if not (statuses - {None}) <= documented[code]}
    assert wrong_row == {}


def test_the_document_publishes_the_enum():
    document = Client().get("/api/v1/openapi.json").json()
    code = document["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
    assert set(code["enum"]) == set(typing.get_args(ErrorCode))
