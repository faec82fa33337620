"""What the bots memoise, per thread, and ``clear_memo`` that forgets it all.

Three memos: priced hands (games.bots.outlook), replays of a deal's discard-pile log
(games.bots.memory) and the hard player's distributions of final contracts
(games.bots.standings). A thread's memos are its own, so a server thread forgets only its game.
"""

from __future__ import annotations

from threading import local

MEMO_SIZE = 4096  # entries per memo: one decision's hands and the next; memory stays small


class _Memos(local):
    def __init__(self):
        self.outlooks: dict = {}
        self.pile_replays: dict = {}
        self.contracts_to_come: dict = {}


MEMOS = _Memos()


def clear_memo() -> None:
    """Forget this thread's memoised outlooks, pile replays and contract distributions: a
    tournament does before each game, so that its time owes nothing to an identical game
    played just before (four bots of one level play each deal four times alike, one per seat
    rotation); a server after each
    request's bots, since the next request is another game (kept across requests, the memo
    held two thirds of a server's long-lived objects, and full garbage collections took
    25-155 ms under load instead of 17-50 ms)."""
    MEMOS.outlooks.clear()
    MEMOS.pile_replays.clear()
    MEMOS.contracts_to_come.clear()
