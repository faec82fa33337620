"""Each level's key decisions, in small scenes (seat 0 to play unless said otherwise)."""

from typing import ClassVar

from games.bots import normal
from games.bots.hard import Hard
from games.engine import Discard, Draw, LayDown, LayOff

from .helpers import card, decide, hand, play, scene, turns

HARD = Hard(worlds=4, horizon=8)
OTHERS = ["2S 3S 4S 5S 6S 8H 8D 10C QC AH", "3H 4H 6H 10H QH 2H 3C 5C 6C 8C",
          "AD 3D 5D 6D 8S 10S JS QS KD KC"]


def completing_scene():
    """Rung 1, two groups of three: the 9H on the pile makes the second group."""
    return scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS], stock="AC AS 4D",
                 discard="6D.2 9H")


def second_pair_scene():
    """Rung 1: a group of sevens made, a pair of nines; the 4D on the pile pairs the lone 4C, a
    second way to the second group, but worth less than a stock draw."""
    return scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS], stock="AC", discard="8C 4D")


def feeding_scene(next_player_collects: bool):
    """Seat 0 threw a 7H and a 7S on its last two turns; now it holds the 7D, dead to its
    groups, beside the 2C, 2D and 3D. Either seat 1, next to play, took both 7s from the pile,
    or it drew blind and the 7s lie buried in the pile."""
    if next_player_collects:
        stock, first, second = "2C 9C 10C 3D JD KD 2D", (1, "discard", "6S"), (1, "discard", "8S")
    else:
        stock, first, second = "2C 5C 9C 10C 3D 6H.2 JD KD 2D", (1, "stock", None), (
            1, "stock", None)
    state = scene(["QH QS QD 4C 4D 5S 5H 7D 7H 7S", "JH JS 9D 10D 6S 8S AS AC KH KS",
                   "AD 6D 8D 9S 10S JC QC KC 9H 3C", "2H 3H 4H 6H 8H 10H 2S 3S 4S 6C"],
                  stock=stock, discard="8C")
    state = turns(state, (0, "stock", "7H"), first, (2, "stock", None), (3, "stock", None),
                  (0, "stock", "7S"), second, (2, "stock", None), (3, "stock", None))
    return play(state, (0, Draw("stock")))


def out_soon_scene(opponent_hand: str):
    """Rung 2 (a group of 3 and a run of 4), a pair of kings beside a lone 9D; seat 3 has laid
    down and holds ``opponent_hand``."""
    state = scene(["7H 7S 7D 4C 5C 9D KH KS 3S 2D", "JH JS 9H 10D 6S 8S AS AC 2H 2S",
                   "AD 6D 8D 9C 10S JC QC KC 3C 4D", opponent_hand],
                  table=[(3, "JD QD KD AD.2"), (3, "5D 5H.2 5S.2")], stock="8C 10C JH.2",
                  discard="8C.2", climbed=(1, 0, 0, 1), laid_down_turn=(None, None, None, 2))
    return play(state, (0, Draw("stock")))


def laid_down_scene():
    """Seat 0 laid its groups down on an earlier turn; its 7C and 9H fit them, and so does
    the 9H on the stock."""
    return scene(["7C 9H 3D", *OTHERS], table=[(0, "7H 7S 7D"), (0, "9C 9S 9D")],
                 stock="9H.2 AC", discard="QD", climbed=(1, 0, 0, 0),
                 laid_down_turn=(2, None, None, None))


# -- normal -----------------------------------------------------------------------------------

def test_normal_takes_the_discard_that_completes_its_contract_and_lays_it_down():
    state = completing_scene()
    assert decide("normal", state) == Draw("discard")
    state = play(state, (0, Draw("discard")))
    laid = decide("normal", state)
    assert isinstance(laid, LayDown)
    assert sorted(map(sorted, laid.melds)) == sorted([sorted(hand("7H 7S 7D")),
                                                       sorted(hand("9C 9S 9H"))])


def test_normal_draws_blind_rather_than_take_a_card_its_contract_cannot_use():
    state = scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS], stock="AC", discard="8C")
    assert decide("normal", state) == Draw("stock")


def test_normal_takes_a_discard_that_helps_a_little_where_the_expert_draws_blind():
    state = second_pair_scene()
    assert decide("normal", state) == Draw("discard")
    assert decide("hard", state, strategy=normal.EXPERT) == Draw("stock")


def test_normal_does_not_throw_what_the_next_player_took_twice_from_the_pile():
    assert decide("normal", feeding_scene(next_player_collects=False)) == Discard(card("7D"))
    assert decide("normal", feeding_scene(next_player_collects=True)) != Discard(card("7D"))


def test_normal_dumps_a_high_pair_when_an_opponent_is_about_to_go_out():
    assert decide("normal", out_soon_scene("2C 3H 4H 6H 8H 10H 5S 3D")) == Discard(card("9D"))
    thrown = decide("normal", out_soon_scene("5H"))
    assert thrown in (Discard(card("KH")), Discard(card("KS")))


def test_normal_lays_off_everything_it_can_and_goes_out():
    state = play(laid_down_scene(), (0, Draw("stock")))
    for _ in range(3):
        action = decide("normal", state)
        assert isinstance(action, LayOff)
        state = play(state, (0, action))
    assert decide("normal", state) == Discard(card("3D"))
    state = play(state, (0, Discard(card("3D"))))
    assert state.history[-1].went_out == 0


def test_normal_takes_a_discard_it_can_lay_off_once_down():
    state = scene(["3D 5C", *OTHERS], table=[(0, "7H 7S 7D"), (0, "9C 9S 9D")], stock="AC",
                  discard="QD 9H", climbed=(1, 0, 0, 0), laid_down_turn=(2, None, None, None))
    assert decide("normal", state) == Draw("discard")


# -- easy -------------------------------------------------------------------------------------

def test_easy_lays_its_contract_down_when_it_holds_it():
    state = play(completing_scene(), (0, Draw("discard")))
    assert isinstance(decide("easy", state), LayDown)


def test_easy_takes_a_discard_that_pairs_a_card_in_hand_and_no_other():
    assert decide("easy", completing_scene()) == Draw("discard")
    state = scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS], stock="AC", discard="8C")
    assert decide("easy", state) == Draw("stock")


def test_easy_keeps_its_pairs_and_throws_the_highest_lone_card():
    state = play(scene(["7H 7S 9C 9S 2D 2H 4C 5H 8D 3S", *OTHERS], stock="JC", discard="8C"),
                 (0, Draw("stock")))
    assert decide("easy", state) == Discard(card("JC"))


def test_easy_does_not_watch_what_the_next_player_collects():
    assert decide("easy", feeding_scene(next_player_collects=True)) == Discard(card("7D"))


# -- hard -------------------------------------------------------------------------------------

class CountingHard(Hard):
    """Hard, noting each search it makes."""

    searches: ClassVar[list] = []

    def search(self, view, memory, rng, options):
        self.searches.append(options)
        return super().search(view, memory, rng, options)


def test_hard_plays_as_the_expert_while_nobody_has_laid_down():
    hard = CountingHard(worlds=2, horizon=4)
    hard.searches.clear()
    state = feeding_scene(next_player_collects=True)
    assert decide("hard", state, strategy=hard) == decide("hard", state, strategy=normal.EXPERT)
    assert decide("hard", completing_scene(), strategy=hard) == Draw("discard")
    assert decide("hard", second_pair_scene(), strategy=hard) == Draw("stock")
    assert hard.searches == []


def test_hard_searches_its_close_discards_once_an_opponent_is_down():
    hard = CountingHard(worlds=4, horizon=8)
    hard.searches.clear()
    thrown = decide("hard", out_soon_scene("5H"), strategy=hard)
    assert thrown in (Discard(card("KH")), Discard(card("KS")))
    (options,) = hard.searches
    assert len(options) == HARD.candidates and thrown in options


def test_hard_takes_the_discard_that_completes_its_contract_with_an_opponent_down():
    state = scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS[:2], "3D 5D JS QS KC"],
                  table=[(3, "AD AS AC"), (3, "6D.2 6H.2 6C.2")], stock="AC.2 4D",
                  discard="6D 9H", climbed=(0, 0, 0, 1), laid_down_turn=(None, None, None, 2))
    assert decide("hard", state, strategy=HARD) == Draw("discard")
    assert isinstance(decide("hard", play(state, (0, Draw("discard"))), strategy=HARD), LayDown)


def test_hard_plays_the_clear_moves_without_searching():
    hard = CountingHard(worlds=2, horizon=4)
    hard.searches.clear()
    state = play(laid_down_scene(), (0, Draw("stock")))
    assert isinstance(decide("hard", state, strategy=hard), LayOff)
    assert hard.searches == []


class ScriptedHard(Hard):
    """Hard whose play-outs are priced from a script: per world, a value for each option."""

    def __init__(self, script, **budget):
        super().__init__(**budget)
        object.__setattr__(self, "script", iter(script))
        object.__setattr__(self, "worlds_seen", 0)

    def play_out(self, world, unseen, seat, action):
        if action == self.options[0]:  # each world prices the options in order
            object.__setattr__(self, "row", next(self.script))
            object.__setattr__(self, "worlds_seen", self.worlds_seen + 1)
        return self.row[self.options.index(action)]

    def search(self, view, memory, rng, options):
        object.__setattr__(self, "options", options)
        return super().search(view, memory, rng, options)


def searched_choice(script, **budget):
    hard = ScriptedHard(script, **budget)
    thrown = decide("hard", out_soon_scene("5H"), strategy=hard)
    return hard.options.index(Discard(thrown.card)), hard.worlds_seen


def test_hard_overturns_the_expert_only_when_the_worlds_agree_on_a_better_discard():
    steady = [(0.20 + w / 100, 0.21 + w / 100, 0.1) for w in range(8)]
    assert searched_choice(steady, worlds=8, first_look=4) == (1, 8)
    # Promising after four worlds, better on average after eight (+0.025), but spread over
    # them: the expert's choice stands.
    up, down = (0.2, 0.3, 0.1), (0.3, 0.2, 0.1)
    noisy = [up, down, up, up, down, up, down, up]
    assert searched_choice(noisy, worlds=8, first_look=4) == (0, 8)


def test_hard_stops_looking_when_no_alternative_shows_promise():
    worse = [(0.3, 0.2 + w / 100, 0.1) for w in range(8)]
    assert searched_choice(worse, worlds=8, first_look=4) == (0, 4)
