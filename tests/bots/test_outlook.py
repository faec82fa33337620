"""The outlook's memo: a cache of prices, each thread's own."""

import threading

from games.bots import outlook
from games.engine.cards import cards_from_text
from games.engine.contracts import contract_for

HAND = cards_from_text("AS AH AD 2S 2H 2D 6S 7S 8S 9S")
LIVE = (1,) * 52 + (3,)  # one copy of every face and every joker may still come


def test_the_outlook_memo_is_each_threads_own():
    rung_1 = contract_for(1)
    outlook.clear_memo()
    mine = outlook.outlook(HAND, rung_1, LIVE)
    other_thread = threading.Thread(target=outlook.clear_memo)
    other_thread.start()
    other_thread.join()

    assert outlook.outlook(HAND, rung_1, LIVE) is mine  # another thread forgets its own
    outlook.clear_memo()
    assert outlook.outlook(HAND, rung_1, LIVE) is not mine


def test_a_hand_holding_its_contract_is_no_draw_away():
    assert outlook.outlook(HAND, contract_for(1), LIVE).nearest <= 0
