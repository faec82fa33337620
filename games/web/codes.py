"""Join codes people read aloud or type: Crockford's base-32 alphabet (no I, L, O, U to
misread), shown in groups of four (``K7QD-2MXW``), read back whatever the case, spaces and
dashes, with O, I and L taken for 0, 1 and 1. A code is a secret like a seed: the admin never
shows, searches, filters or orders by it."""

from __future__ import annotations

import secrets

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
GROUP_CHARS = 4


def new_code(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def shown_code(code: str) -> str:
    """``ABCD2345`` as people read it: ``ABCD-2345``."""
    return "-".join(code[i:i + GROUP_CHARS] for i in range(0, len(code), GROUP_CHARS))


def normalise_code(raw: str, length: int) -> str | None:
    """The code a person typed or a link carried, or None if it cannot be one of ``length``
    characters."""
    code = raw.upper().replace("-", "").replace(" ", "")
    code = code.replace("O", "0").replace("I", "1").replace("L", "1")
    if len(code) != length or any(c not in CODE_ALPHABET for c in code):
        return None
    return code
