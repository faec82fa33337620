"""The one error the engine raises for anything a player may not do."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules forbid: a stable ``code`` for clients, the ``rule`` it breaks
    (docs/rules.md, e.g. ``"R16"``) and a ``message`` written for players."""

    def __init__(self, code: str, rule: str | None, message: str):
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "rule": self.rule}
