"""How likely a player is to win the game from a deal's end (R22), to weigh a deal's outcomes.

A climb is worth most when it decides the winner, penalty points when the contracts are level:
ranking is by contracts completed, then by fewer penalty points. Given each seat's contracts
and points so far, its chance of laying down in the current deal and its expected points in it,
the rest of the game is modelled simply: in each deal to come a player on rung ``r`` lays down
with the chance an expert player does (measured with the tournament command when the normal
level played as the expert does, before 2026-12-02), and scores about the mean penalty of a
deal, with a known spread.
"""

from __future__ import annotations

from math import erf, sqrt

from games.engine.contracts import TOP_RUNG
from games.engine.state import DEALS

from .memo import MEMO_SIZE, MEMOS

# Share of deals in which an expert player on each rung lays the contract down (tournament of four
# expert players; the rungs above 8 are seldom reached and take rung 7's figure).
CLIMB_CHANCE = (0.87, 0.72, 0.46, 0.62, 0.5, 0.4, 0.28, 0.45, 0.28, 0.28)
PENALTY_SPREAD = 30.0  # their standard deviation


def win_chance(seat: int, contracts, penalties, rungs, climb_now, points_now,
               deals_left: int) -> float:
    """The chance ``seat`` finishes first (a shared first place counting half).

    ``contracts``, ``penalties`` and ``rungs`` are each seat's before this deal ends;
    ``climb_now`` the chance each lays down in this deal and ``points_now`` its expected points
    in it; ``deals_left`` the deals to come after this one."""
    totals = [_contracts_to_come(contracts[s], rungs[s], climb_now[s], deals_left)
              for s in range(len(contracts))]
    spread = PENALTY_SPREAD * sqrt(2 * deals_left) if deals_left else 0.0
    mine = totals[seat]
    chance = 0.0
    for total, p in enumerate(mine):
        if not p:
            continue
        beaten = p
        for other in range(len(contracts)):
            if other == seat:
                continue
            ahead = (penalties[other] + points_now[other]) - (penalties[seat] + points_now[seat])
            level = _fewer_points(ahead, spread)
            theirs = totals[other]
            beaten *= sum(theirs[:total]) + (theirs[total] * level if total < len(theirs) else 0)
        chance += beaten
    return chance


def _fewer_points(lead: float, spread: float) -> float:
    """The chance of ending with fewer points than a player now ``lead`` points behind."""
    if spread == 0:
        return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return 0.5 * (1 + erf(lead / (spread * sqrt(2))))


def _contracts_to_come(contracts: int, rung: int, climb_now: float, deals_left: int):
    """The distribution of final contracts: ``contracts`` now, this deal's climb with chance
    ``climb_now``, then a climb in each later deal with its rung's chance.

    Memoised per thread (games.bots.memo; a tuple, so no caller can change it): the hard
    player's play-outs ask it for every seat of every world, and two in three asks repeat one
    (a chance of 0 or 1 once a deal is over or a player is down)."""
    key = (contracts, rung, climb_now, deals_left)
    memo = MEMOS.contracts_to_come
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        found = memo[key] = _final_contracts(contracts, rung, climb_now, deals_left)
    return found


def _final_contracts(contracts: int, rung: int, climb_now: float, deals_left: int):
    size = contracts + deals_left + 2
    by_rung = {(contracts, rung): 1.0 - climb_now}
    if climb_now:
        by_rung[(contracts + 1, min(rung + 1, TOP_RUNG))] = climb_now
    for _ in range(min(deals_left, DEALS)):
        after: dict = {}
        for (total, r), p in by_rung.items():
            q = CLIMB_CHANCE[r - 1] if total < TOP_RUNG else 0.0
            after[(total, r)] = after.get((total, r), 0.0) + p * (1 - q)
            if q:
                key = (total + 1, min(r + 1, TOP_RUNG))
                after[key] = after.get(key, 0.0) + p * q
        by_rung = after
    final = [0.0] * size
    for (total, _), p in by_rung.items():
        final[total] += p
    return tuple(final)
