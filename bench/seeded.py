"""The same games every run of an in-process bench: the server's secrets (game seeds, tokens,
ids) drawn from a fixed seed while it plays, so a figure moves with the host, not with the
hands dealt."""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Iterator


@contextlib.contextmanager
def fixed_secrets(seed: str) -> Iterator[None]:
    chance = random.Random(seed)
    original = secrets.token_bytes
    secrets.token_bytes = lambda nbytes=None: chance.randbytes(32 if nbytes is None else nbytes)
    try:
        yield
    finally:
        secrets.token_bytes = original
