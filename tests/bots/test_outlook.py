"""The outlook's memo: a cache of prices, each thread's own."""

import threading
from bisect import bisect_left
from itertools import accumulate

from games.bots import outlook
from games.engine.cards import cards_from_text
from games.engine.contracts import contract_for
from games.engine.rng import Stream

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


def test_without_is_the_soft_minimum_of_every_plan_priced_without_the_card():
    """Every face's loss priced at once (reused exponentials included) gives, to the last bit,
    what re-pricing each plan and taking the soft minimum over all of them gives."""
    rng = Stream.of("outlook-without")
    for trial in range(300):
        cards = rng.shuffle(list(range(107)))[:11]
        contract = contract_for(1 + trial % 10)
        live = tuple(rng.below(3) for _ in range(52)) + (rng.below(4),)
        weighed = outlook.Outlook(cards, contract, live)
        plans, jokers = list(weighed.plans), weighed.jokers  # let go at the first card weighed
        assert weighed.distance == outlook.soft_min([p[0] for p in plans])
        for card in cards:
            if card >= 104:
                expected = outlook.soft_min([_cost_with_a_joker_fewer(fixed, flexible, jokers)
                                             for _, fixed, flexible, _ in plans])
            else:
                face = card % 52
                costs = []
                for cost, fixed, flexible, losses in plans:
                    loss = dict(losses).get(face)  # the last loss listed for the face
                    costs.append(cost if loss is None else
                                 _cost_without_natural(cost, fixed, flexible, loss, jokers))
                expected = outlook.soft_min(costs)
            assert weighed.without(card) == expected


def _cost_with_a_joker_fewer(fixed, flexible, jokers):
    """A plan's cost once one of the hand's jokers is gone: the jokers left fill the dearest
    of its (sorted) flexible slots, draws the others."""
    for_draws = len(flexible) - (jokers - 1)
    return fixed + sum(flexible[:for_draws]) if for_draws > 0 else fixed


def _cost_without_natural(cost, fixed, flexible, loss, jokers):
    """A plan's cost once one natural it uses is gone (the loss's slot must be filled again),
    as the plan objects priced it one face at a time before issue 33's third round."""
    slot, needs_natural = loss
    if needs_natural:
        return cost + slot
    kept = len(flexible) + 1 - jokers  # slots left for draws to fill
    if kept <= 0:
        return fixed
    sums = [0.0, *accumulate(flexible)]
    if bisect_left(flexible, slot) >= kept:
        return fixed + sums[kept]
    return fixed + sums[kept - 1] + slot
