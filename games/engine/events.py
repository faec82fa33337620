"""What happened, and who may see it (R25).

An event's ``data`` is public; ``private`` adds what only one seat may see, such as the card
a player drew from the stock. :meth:`Event.for_seat` is the only way to read one for a player.
"""

from __future__ import annotations

from typing import NamedTuple


# A named tuple: every action makes one or more events, and a named tuple is built in one step
# where a frozen dataclass's __init__ sets each field through object.__setattr__
# (docs/performance.md). As immutable as before.
class Event(NamedTuple):
    type: str
    data: dict
    private: tuple[tuple[int, dict], ...] = ()

    def for_seat(self, seat: int | None) -> dict:
        """The event as ``seat`` may see it: ``{"type": ..., **data}`` plus its private part.
        ``seat=None`` is a spectator, who sees only public data."""
        result = {"type": self.type, **self.data}
        for owner, extra in self.private:
            if owner == seat:
                result.update(extra)
        return result

    def to_json(self) -> dict:
        """Everything, for server-side storage only; never send this to a client."""
        return {"type": self.type, "data": self.data,
                "private": [[seat, extra] for seat, extra in self.private]}
