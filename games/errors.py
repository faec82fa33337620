"""Errors the games API answers with, in the API's one shape (ladder/api.py):
``{"error": {"code", "message", "rule"?}}``."""

from __future__ import annotations

from ninja.errors import HttpError


class ApiError(HttpError):
    """An HTTP error with a stable ``code`` and, where a rule applies, its number."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None):
        super().__init__(status, message)
        self.code = code
        self.rule = rule


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
