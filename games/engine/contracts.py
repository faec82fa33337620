"""The ladder of ten contracts (R10): the one table the engine, bots, API and rules page share."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

GROUP, RUN = "group", "run"


@dataclass(frozen=True)
class Requirement:
    kind: str  # GROUP or RUN
    min_cards: int

    def describe(self) -> str:
        return f"a {self.kind} of {self.min_cards}"


@dataclass(frozen=True)
class Contract:
    rung: int
    requirements: tuple[Requirement, ...]

    @property
    def min_cards(self) -> int:
        return sum(r.min_cards for r in self.requirements)

    def describe(self) -> str:
        return self.description

    @cached_property
    def description(self) -> str:
        """The contract in words ("one group of 3 and one run of 4"): worked out at the first
        look and kept on this contract (one of the ten of LADDER, which never change), since
        every view's JSON names each player's contract."""
        counts: dict[Requirement, int] = {}
        for r in self.requirements:
            counts[r] = counts.get(r, 0) + 1
        words = {1: "one", 2: "two", 3: "three"}
        parts = [f"{words[n]} {r.kind}{'s' if n > 1 else ''} of {r.min_cards}"
                 for r, n in counts.items()]
        return " and ".join(parts)

    def to_json(self) -> dict:
        return {"rung": self.rung, "description": self.description,
                "melds": [{"kind": r.kind, "min_cards": r.min_cards} for r in self.requirements]}


def _contract(rung: int, *spec: tuple[str, int]) -> Contract:
    return Contract(rung, tuple(Requirement(kind, n) for kind, n in spec))


LADDER: tuple[Contract, ...] = (
    _contract(1, (GROUP, 3), (GROUP, 3)),
    _contract(2, (GROUP, 3), (RUN, 4)),
    _contract(3, (RUN, 4), (RUN, 4)),
    _contract(4, (GROUP, 3), (GROUP, 3), (GROUP, 3)),
    _contract(5, (GROUP, 4), (RUN, 4)),
    _contract(6, (GROUP, 3), (GROUP, 3), (RUN, 4)),
    _contract(7, (RUN, 7)),
    _contract(8, (GROUP, 4), (GROUP, 4)),
    _contract(9, (RUN, 4), (RUN, 6)),
    _contract(10, (GROUP, 3), (RUN, 7)),
)
TOP_RUNG = len(LADDER)


def contract_for(rung: int) -> Contract:
    return LADDER[rung - 1]
