"""A table's turn timer in the browser, through the real ASGI server: Ana (laptop, mouse) and
Ben (phone, touch) play with the table's timer; the countdown stands by the seat to move.
Ben's tab closes, his time runs out twice (the test moves his deadline into the past: any
read of the game then plays the overdue turn), the bot plays for him and Ana's screen shows
his seat "away" as the socket says so; Ben's tab comes back, he presses "I'm back" and plays
on. With SCREENS=1, screenshots in three languages at both sizes go to
artifacts/screenshots/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from tests.browser.conftest import Watch, shoot
from tests.browser.table_driver import view, wait_idle
from tests.browser.test_together import Person, api_of, play_turn, start_together, two_at_a_table
from tests.games.scripted import one_action
from tests.languages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 12  # Ana's turns while Ben's time runs out twice, with room to spare
CLOCK = "[data-turn-clock]:not([hidden])"
COUNTDOWN = r"""(where) => {
    const clock = document.querySelector(where + ' > [data-turn-clock]:not([hidden])');
    return clock && /^\d:\d\d$/.test(clock.querySelector('[data-clock-time]').textContent);
}"""



def seconds_shown(page) -> int:
    minutes, seconds = page.locator(CLOCK).locator("[data-clock-time]").text_content().split(":")
    return int(minutes) * 60 + int(seconds)


def run_out(game_id: str) -> None:
    """The turn of the person to move is already over (the server plays it on the next read)."""
    Game.objects.filter(public_id=game_id).update(
        turn_deadline=timezone.now() - timedelta(seconds=1))


def seat_clock_clears_the_badges(page, seat: int) -> None:
    """The countdown in a seat's box stays inside it and off its badges, the widest a seat
    can wear (Away, Dealer, Laid down): both put there as a render puts them, whoever is to
    move now (the check is of where the page's CSS sets them)."""
    overlaps = page.evaluate("""(seat) => {
        const box = document.querySelector(`[data-seats] .seat[data-seat="${seat}"]`);
        const clock = document.querySelector("[data-turn-clock]");
        box.append(clock);
        clock.hidden = false;
        const badges = box.querySelector(".badges");
        const worn = [...badges.children];
        const widest = [["away", "Away"], ["dealer", "Dealer"], ["down", "✓ Laid down"]];
        for (const [kind, text] of widest) {
            const b = document.createElement("span");
            b.className = `badge ${kind}`;
            b.textContent = text;
            badges.append(b);
        }
        const at = clock.getBoundingClientRect();
        const within = box.getBoundingClientRect();
        const found = [...badges.children].map((b) => b.getBoundingClientRect())
            .filter((b) => b.width && b.left < at.right && at.left < b.right
                    && b.top < at.bottom && at.top < b.bottom).length;
        const outside = at.left < within.left || at.right > within.right
            || at.top < within.top || at.bottom > within.bottom;
        badges.replaceChildren(...worn);  // the next render puts the clock back where it goes
        return {found, outside};
    }""", seat)
    assert overlaps == {"found": 0, "outside": False}


def ben_seat_shows_away(page, seat: int, away: bool = True) -> None:
    selector = f'[data-seats] .seat[data-seat="{seat}"] .badge.away'
    page.wait_for_selector(selector, state="attached" if away else "detached")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_person_out_of_time_goes_away_and_comes_back(open_page, site, seeded, language):
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site, language)
    game_id = start_together(host, guest)
    ana = Person(host, host_watch, "Ana", touch=False)
    ana.seat, ben_seat = view(host)["you"], view(guest)["you"]
    game = view(host)
    assert game["turn_seconds"] == 60  # the table form's default timer

    # The countdown stands by the seat to move, on both screens, from the server's seconds.
    mover = host if game["turn"] == ana.seat else guest
    for page in (host, guest):
        page.wait_for_function(COUNTDOWN, arg="section.me" if page is mover else
                               f'[data-seats] .seat[data-seat="{game["turn"]}"]')
        assert 50 <= seconds_shown(page) <= 60
    for page in (host, guest):
        seat_clock_clears_the_badges(page, next(seat for seat in range(4)
                                                if seat != view(page)["you"]))
    shoot(guest, f"timer/{language}-390-timer", full_page=False)
    shoot(host, f"timer/{language}-1280-timer", full_page=False)

    # Ben's tab closes; his turns run out twice. Ana plays hers through the API (her page
    # follows them as it would another tab's), so the page only has to show the news.
    guest.close()
    ana_api = api_of(ana, site)
    timeouts = 0
    for _ in range(MAX_TURNS):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["players"][ben_seat]["away"]:
            break
        if game["turn"] == ben_seat:
            run_out(game_id)
            timeouts += 1  # the next read plays it; Ana's page hears it on the socket
            continue
        one_action(ana_api, game)
    assert timeouts == 2 and view(host)["players"][ben_seat]["away"]
    ben_seat_shows_away(host, ben_seat)
    wait_idle(host)  # Ana's page has caught up: her turn (Ben's are played at once now)
    assert host.locator("[data-away]").is_hidden()  # Ana herself is not away
    shoot(host, f"timer/{language}-1280-away", full_page=False)

    # Ben comes back (the same browser, a new tab): he is told he is away, and says he is back.
    page = guest.context.new_page()
    ben = Person(page, Watch(page, site.url), "Ben", touch=True)
    ben.page.goto(f"{site.url}/play/{game_id}/")
    ben.page.wait_for_selector("[data-away]:not([hidden]) [data-back]")
    shoot(ben.page, f"timer/{language}-390-away", full_page=False)
    ben.press("[data-back]")
    ben.page.wait_for_selector("[data-away]", state="hidden")
    ben_seat_shows_away(host, ben_seat, away=False)
    assert not view(host)["players"][ben_seat]["away"]

    # And plays on: his next turn is his own again, with its countdown.
    for _ in range(MAX_TURNS):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["turn"] == ben_seat:
            break
        one_action(ana_api, game)
    wait_idle(ben.page)
    ben.page.wait_for_function(COUNTDOWN, arg="section.me")
    host.wait_for_function(COUNTDOWN, arg=f'[data-seats] .seat[data-seat="{ben_seat}"]')
    shoot(ben.page, f"timer/{language}-390-back", full_page=False)
    if language == "en":  # the driver reads the English log
        play_turn(ben, [ana])
        assert view(host)["turn"] != ben_seat
    assert not view(host)["players"][ben_seat]["away"]
    for watch in (host_watch, guest_watch, ben.watch):
        watch.check()
