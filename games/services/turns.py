"""Turns a person does not play: a turn played by a bot when its timer runs out (and the
seat marked away after AWAY_AFTER_TIMEOUTS of them), a person back (which also ends a
paused table's pause), a person who has read the deal's results (the break between deals),
a person who leaves the game for good (docs/design.md, "Turn timers"). The deadline as data
is games.services.timers.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.bots import clear_memo
from games.engine import FINISHED, Action, Event, GameState
from games.models import Game, Seat
from games.players.models import Player
from games.services import timers
from games.services.moves import bot_move, run_bots, save_moves, timer_news
from games.services.publishing import publish_after_commit
from games.services.seating import Seated, Seating, seated_at, seating_of
from games.web.rows import select_row


def time_out(public_id: str) -> bool:
    """If the turn of game ``public_id``'s person to move has run out, a bot of the game's
    level plays it for them; whether it did. Every watcher calls this (games.tasks, beat's
    sweep, a read or an action of the game): under the game's row lock, the deadline is
    checked and moved in one transaction, so of any number of calls for one turn, at once or
    one after another, one plays it."""
    with transaction.atomic():
        game = select_row(Game, for_update=True, public_id=public_id)
        if game is None or game.status != Game.ACTIVE or not timers.overdue(game):
            return False
        play_overdue_turn(game, seating_of(game), game.load_state())
    return True


def time_out_overdue() -> int:
    """Beat's sweep, the safety net of the tasks due at each deadline (a lost task, a broker
    that was away): plays every overdue turn; how many it played."""
    overdue = (Game.objects.filter(status=Game.ACTIVE, turn_deadline__lte=timezone.now())
               .values_list("public_id", flat=True))
    return sum(time_out(public_id) for public_id in overdue)


def come_back(public_id: str, player: Player) -> Seated:
    """"I'm back": ``player``'s seat is no longer away, and its run of turns out of time
    starts again from none (any action of theirs does the same: games.services.actions.act).
    The game as they see it; GameNotFound if they do not sit at it."""
    with transaction.atomic():
        seated = seated_at(select_row(Game, for_update=True, public_id=public_id), player,
                           public_id)
        if seated.seating.timeouts(seated.seat):
            seated, _state = here_again(seated, seated.game.load_state())
    return seated


def ready(public_id: str, player: Player) -> Seated:
    """``player`` has closed the results of the deal that just ended. In the break between
    deals, once every person present (not away; the away are played by the bot) has, the
    break ends now: the turn waiting for it is timed from now, and every seat hears its
    ``turn_timer``. Outside a break it changes nothing. The game as they see it;
    GameNotFound if they do not sit at it."""
    with transaction.atomic():
        seated = seated_at(select_row(Game, for_update=True, public_id=public_id), player,
                           public_id)
        game, seating = seated.game, seated.seating
        now = timezone.now()
        if game.status != Game.ACTIVE or not timers.in_break(game, now):
            return seated
        deal = game.state["deal"]
        Seat.objects.filter(game_id=game.pk, number=seated.seat).update(ready_deal=deal)
        present = [seat for seat in seating.people if not seating.away(seat)]
        if Seat.objects.filter(game_id=game.pk, number__in=present,
                               ready_deal__lt=deal).exists():
            return seated
        previous = game.turn_deadline
        game.break_until = now
        if previous is not None:  # a turn timed from the break's end: from now instead
            game.turn_deadline = min(previous, now + timedelta(seconds=game.turn_seconds))
        game.save(update_fields=["break_until", "turn_deadline"])
        publish_after_commit(game.public_id, seating, [],
                             after=timer_news(game, game.load_state(), previous))
    return seated


def play_overdue_turn(game: Game, seating: Seating,
                      state: GameState) -> tuple[int, Seating, GameState]:
    """The caller holds the game's row lock and has seen the deadline pass. A bot of the
    game's level plays the rest of the turn for the person out of time, from their seat's
    PlayerView (R25); their run of timeouts grows (at AWAY_AFTER_TIMEOUTS the seat is away);
    then the bots play up to the next person. Returns (the seat, the seating, the state)."""
    seat, first_index = state.turn, game.version
    steps: list[tuple[int, Action]] = []
    happened: list[tuple[int, Event]] = []
    turn = (state.deal, state.turn_number)
    try:
        while state.phase != FINISHED and (state.deal, state.turn_number) == turn:
            state = bot_move(game, state, steps, happened)
    finally:
        clear_memo()
    was_away = seating.away(seat)
    if seating.is_person(seat) and not was_away:
        timeouts = seating.timeouts(seat) + 1
        Seat.objects.filter(game_id=game.pk, number=seat).update(timeouts=timeouts)
        seating = seating.with_timeouts(seat, timeouts)
    state = run_bots(game, seating, state, steps, happened)
    after = ([timers.notice(state.actions, "away", {"seat": seat, "away": True})]
             if seating.away(seat) and not was_away else [])
    save_moves(game, seating, state, steps, first_index, happened,
               before=[timers.notice(first_index, "timed_out", {"seat": seat})], after=after)
    return seat, seating, state


def here_again(seated: Seated, state: GameState) -> tuple[Seated, GameState]:
    """The caller holds the game's row lock: the asker, whose timer ran out on their last
    turns, is here; an away seat is played by its person again, and every seat hears it.
    (With everyone else away the table was paused: now their turns are played at once
    again, and the turn that waited is timed from now.)"""
    game, seat = seated.game, seated.seat
    was_away = seated.seating.away(seat)
    Seat.objects.filter(game_id=game.pk, number=seat).update(timeouts=0)
    seated = Seated(game, seated.seating.with_timeouts(seat, 0), seat)
    if not was_away or game.status != Game.ACTIVE:
        return seated, state
    steps: list[tuple[int, Action]] = []
    happened: list[tuple[int, Event]] = []
    state = run_bots(game, seated.seating, state, steps, happened)
    back = [timers.notice(state.actions, "away", {"seat": seat, "away": False})]
    if steps:
        save_moves(game, seated.seating, state, steps, game.version, happened, after=back)
    else:
        previous = game.turn_deadline
        if game.turn_seconds and previous is None:  # the pause ends: the turn is timed again
            game.turn_deadline = timers.next_deadline(game, state)
            game.save(update_fields=["turn_deadline"])
        publish_after_commit(game.public_id, seated.seating, [],
                             after=[*back, *timer_news(game, state, previous)])
    return seated, state


def leave_game(public_id: str, player: Player) -> None:
    """``player`` leaves a game for good: a bot of the game's level plays their seat from now
    on (at once, if it is their turn). Their result is still theirs when the game ends, and
    its replay opens for them as for everyone who sat at it. GameNotFound if they do not sit
    at it (any more)."""
    with transaction.atomic():
        seated = seated_at(select_row(Game, for_update=True, public_id=public_id), player,
                           public_id)
        game = seated.game
        Seat.objects.filter(game_id=game.pk, number=seated.seat).update(
            left_at=timezone.now())
        if game.status != Game.ACTIVE:
            return
        seating = seated.seating.without(seated.seat)
        state = game.load_state()
        steps: list[tuple[int, Action]] = []
        happened: list[tuple[int, Event]] = []
        state = run_bots(game, seating, state, steps, happened)
        if steps:
            save_moves(game, seating, state, steps, game.version, happened)
