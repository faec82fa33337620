"""Friends at one table, through the real ASGI server: three browsers (two phones at 390×844
by touch, one laptop by mouse) sit down from the link and from the code, see who is here,
react, and play a whole deal together from their own seats, each move showing on the other
screens as it happens; once the game is over, "Play again" seats everyone at the next one,
and the game is in each person's games with its replay open to each."""

from __future__ import annotations

import pytest
from django.test import Client

from games.players.identity import COOKIE_NAME
from games.tables.models import Table
from tests.browser.conftest import shoot
from tests.browser.strategy import discard_choice_json
from tests.browser.table_driver import card, double_click, view, wait_idle
from tests.games.conftest import Api
from tests.games.scripted import play_together_to_the_end
from tests.languages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.convergence, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
MAX_TURNS = 120  # a deal's turns at four seats, with room to spare
RENAME = """async (name) => {
    const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
    const r = await fetch('/api/v1/me', {method: 'PATCH', body: JSON.stringify({name}),
        headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf}});
    return r.status;
}"""
# Log lines that begin with a name: each of that person's moves adds at least one.
LINES_OF = """(name) => [...document.querySelectorAll('[data-log-lines] li')]
    .filter((li) => li.textContent.startsWith(name + ' ')).length"""
SHOWN_AFTER = """([name, before]) => document.querySelector('dialog[open]')
    || [...document.querySelectorAll('[data-log-lines] li')]
        .filter((li) => li.textContent.startsWith(name + ' ')).length > before"""

# The mover's page has shown its move: their turn goes on, or another's began, or a deal ended.
MOVED = """() => document.querySelector('dialog[open]')
    || document.getElementById('game').classList.contains('my-turn')
    || /^Waiting for /.test(document.querySelector('[data-turn]').textContent)"""


class Person:
    def __init__(self, page, watch, name: str, touch: bool):
        self.page, self.watch, self.name, self.touch = page, watch, name, touch
        self.seat = None

    def press(self, selector: str) -> None:
        (self.page.tap if self.touch else self.page.click)(selector)

    def rename(self) -> None:
        assert self.page.evaluate(RENAME, self.name) == 200


def lobby_id(page) -> str:
    return page.locator("#table-lobby").get_attribute("data-table-id")


def seated_together(open_page, site, language: str = "en") -> tuple[list[Person], str]:
    """Ana opens a table on her laptop; Ben sits down from the link on his phone, Chai from
    the code typed on hers. Returns the three, and the table's link."""
    people = []
    for name, viewport, touch in (("Ana", LAPTOP, False), ("Ben", PHONE, True),
                                  ("Chai", PHONE, True)):
        page, watch = open_page(viewport, touch=touch, speed="instant")
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": site.url}])
        people.append(Person(page, watch, name, touch))
    ana, ben, chai = people

    for person in people:  # names first (a first write gives the browser its identity)
        person.page.goto(site.url + "/#friends")
        person.rename()
    ana.page.fill("#table-name", "Friday cards")
    ana.page.check('#table-form input[name="level"][value="easy"]')
    ana.page.check('#table-form input[name="turn_seconds"][value=""]')  # the timer: not here
    ana.page.click("#table-form button[type=submit]")
    ana.page.wait_for_url("**/tables/*/")
    ana.page.wait_for_selector("[data-code]:not(:empty)")
    link = ana.page.locator("[data-link]").input_value()
    code = ana.page.locator("[data-code]").text_content()
    assert link.endswith(f"/tables/join/{code}/") and len(code) == 14

    ben.page.goto(link)
    ben.page.wait_for_selector("[data-join]:not([hidden])")
    assert "Friday cards" in ben.page.locator("[data-what]").text_content()
    ben.press("[data-join]")
    ben.page.wait_for_url(f"**/tables/{lobby_id(ana.page)}/")

    chai.page.fill("#table-code", code.lower().replace("-", " "))
    chai.press("#code-form button[type=submit]")
    chai.page.wait_for_selector("[data-join]:not([hidden])")
    chai.press("[data-join]")
    chai.page.wait_for_url(f"**/tables/{lobby_id(ana.page)}/")
    return people, link


def here_now(page, names: list[str]) -> None:
    """The lobby shows these people, each connected now."""
    page.wait_for_function(
        """(names) => names.every((n) => [...document.querySelectorAll('.lobby-seats li')]
            .some((li) => li.textContent.includes(n) && li.querySelector('.presence.here')))""",
        arg=names)


def play_turn(person: Person, others: list[Person]) -> None:
    """One turn of the scripted strategy through the page (the laptop by mouse, the phones by
    touch), each step seen on the other screens before the next."""
    page = person.page
    wait_idle(page)

    def step(act) -> None:
        before = [o.page.evaluate(LINES_OF, person.name) for o in others]
        mine = page.evaluate(LINES_OF, "You")
        act()
        page.wait_for_function(SHOWN_AFTER, arg=["You", mine])
        page.wait_for_function(MOVED)
        for other, count in zip(others, before, strict=True):
            other.page.wait_for_function(SHOWN_AFTER, arg=[person.name, count])

    step(lambda: person.press("[data-stock]"))
    while True:
        v = view(page)
        if v["phase"] != "play" or v["turn"] != v["you"]:
            return
        if v["legal"]["may_lay_down"] and v["legal"]["lay_downs"]:
            def lay_down():
                person.press("[data-action=laydown]")
                page.wait_for_selector("[data-laydown-confirm]:not([disabled])")
                person.press("[data-laydown-confirm]")
            step(lay_down)
            page.wait_for_selector(".celebration", state="detached")
            continue
        if v["legal"]["lay_off"]:
            option = v["legal"]["lay_off"][0]

            def lay_off(option=option):
                card(page, option["card"]).tap() if person.touch else \
                    card(page, option["card"]).click()
                selector = f'[data-layoff="{option["meld"]}"][data-end="{option["end"]}"]'
                if not page.locator(selector).count():
                    selector = f'[data-layoff="{option["meld"]}"]'
                person.press(selector)
            step(lay_off)
            continue
        chosen = discard_choice_json(v)

        def discard(chosen=chosen):
            if person.touch:  # tap the card, then the Discard button
                card(page, chosen).tap()
                page.wait_for_selector("[data-action=discard]:not([disabled])")
                person.press("[data-action=discard]")
            else:
                double_click(page, card(page, chosen))
        step(discard)
        return


def api_of(person: Person, site) -> Api:
    """A test client holding the person's browser identity, for play the test fast-forwards."""
    client = Client()
    for cookie in person.page.context.cookies(site.url):
        if cookie["name"] == COOKIE_NAME:
            client.cookies[COOKIE_NAME] = cookie["value"]
    return Api(client)


@pytest.mark.slow
def test_three_friends_sit_down_play_a_deal_together_and_play_again(open_page, site, seeded):
    people, _link = seated_together(open_page, site)
    ana, ben, chai = people
    for person in people:
        here_now(person.page, ["Ana", "Ben", "Chai"])
        person.page.wait_for_selector("[data-start]", state="attached")
    assert ana.page.locator("[data-start]").is_visible()
    assert not ben.page.locator("[data-start]").is_visible()
    assert "Ana" in ben.page.locator("[data-state]").text_content()

    # A reaction in the lobby: everyone sees it by Ben's seat.
    ben.press('[data-reactions] [data-reaction="nice"]')
    for person in people:
        person.page.wait_for_selector(".reaction-bubble:has-text('Ben: Nice!')")

    ana.press("[data-start]")
    for person in people:
        person.page.wait_for_url("**/play/**")
        person.page.wait_for_selector("#game:not([data-loading])")
    game_id = ana.page.locator("#game").get_attribute("data-game-id")
    for person in people:
        assert person.page.locator("#game").get_attribute("data-game-id") == game_id
        person.seat = view(person.page)["you"]
        assert person.page.locator("[data-hint]").is_hidden()  # hints are off here
    by_seat = {p.seat: p for p in people}
    assert sorted(by_seat) == [0, 1, 2]
    shown = ben.page.locator("[data-seats]").text_content()
    assert "Ana" in shown and "Chai" in shown

    # A reaction from the game page, shown on every screen by the sender's seat.
    chai.press("[data-react-toggle]")
    chai.press('#reactions [data-reaction="good_game"]')
    for person in people:
        who = "You" if person is chai else "Chai"
        person.page.wait_for_selector(f".reaction-bubble:has-text('{who}: Good game')")

    turns = 0
    while view(ana.page)["deal"] == 1 and turns < MAX_TURNS:
        v = view(ana.page)
        mover = by_seat.get(v["turn"])
        if mover is None:  # the bot moves with the person before it: only when a deal ends
            break
        # Whose turn it is, on the other screens, by name.
        for other in people:
            if other is not mover:
                other.page.wait_for_function(
                    "(name) => document.querySelector('[data-turn]').textContent.includes(name)",
                    arg=mover.name)
        play_turn(mover, [p for p in people if p is not mover])
        turns += 1
    assert view(ana.page)["deal"] == 2, f"deal 1 did not end in {turns} turns"
    for person in people:  # every screen shows the deal's end
        person.page.wait_for_selector("dialog[open] [data-summary-continue]")
        person.press("dialog[open] [data-summary-continue]")

    # The other nine deals go faster, through the API from each person's identity.
    apis = {p.seat: api_of(p, site) for p in people}
    for person in people:
        person.page.goto(f"{site.url}/tables/{table_of_game(game_id)}/?game={game_id}")
        person.page.wait_for_selector("[data-to-game]:not([hidden])")
    game = play_together_to_the_end(apis, apis[0].get(f"/games/{game_id}").json())
    assert game["status"] == "finished"

    # The result on every screen: the table's standings by name; the host plays again and
    # everyone follows to the next game, seated as before.
    for person in people:
        person.page.goto(f"{site.url}/play/{game_id}/")
        person.page.wait_for_selector("dialog[open] .scores")
        standings = person.page.locator("dialog[open] .scores").text_content()
        names = ["You" if p is person else p.name for p in people]
        assert all(name in standings for name in names), standings
    ben.page.wait_for_selector("dialog[open] .waiting-next:has-text('Ana')")
    ana.page.wait_for_selector("dialog[open] [data-play-again]")
    shoot(ben.page, "together/en-390-result", full_page=False)
    shoot(ana.page, "together/en-1280-result", full_page=False)
    ana.press("dialog[open] [data-play-again]")
    for person in people:
        person.page.wait_for_function("(id) => !location.pathname.includes(id) &&"
                                      " location.pathname.startsWith('/play/')", arg=game_id)
        person.page.wait_for_selector("#game:not([data-loading])")
    again = view(ben.page)
    assert again["id"] != game_id and again["you"] == ben.seat
    assert [p["bot"] for p in again["players"]] == [False, False, False, True]

    # The game is in each person's games, and its replay opens for each.
    for person in people:
        person.page.goto(f"{site.url}/games/")
        person.page.wait_for_selector(f'[data-games] a[href*="{game_id}"]')
        response = person.page.goto(f"{site.url}/replay/{game_id}/")
        assert response.status == 200
    for person in people:
        person.watch.check()


def table_of_game(game_id: str) -> str:
    return Table.objects.get(game__public_id=game_id).public_id


def start_together(host, *guests) -> str:
    """The host starts the table's game from the lobby; every page is on it and loaded: its
    id."""
    host.click("[data-start]")
    for page in (host, *guests):
        page.wait_for_url("**/play/**")
        page.wait_for_selector("#game:not([data-loading])")
    return host.locator("#game").get_attribute("data-game-id")


def two_at_a_table(open_page, site, language: str = "en", shots: bool = False):
    """Ana opens a table on her laptop, Ben sits down from its link on his phone: their pages
    (on the lobby) and watches."""
    host, host_watch = open_page(LAPTOP, speed="instant")
    guest, guest_watch = open_page(PHONE, touch=True, speed="instant")
    for page, name in ((host, "Ana"), (guest, "Ben")):
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": site.url}])
        page.goto(site.url + "/#friends")
        assert page.evaluate(RENAME, name) == 200
    if shots:
        guest.locator("#friends").scroll_into_view_if_needed()
        shoot(guest, f"together/{language}-390-home-friends", full_page=False)
    host.fill("#table-name", "Friday cards")
    host.click("#table-form button[type=submit]")
    host.wait_for_selector("[data-code]:not(:empty)")
    guest.goto(host.locator("[data-link]").input_value())
    guest.wait_for_selector("[data-join]:not([hidden])")
    if shots:
        shoot(guest, f"together/{language}-390-join", full_page=False)
    guest.tap("[data-join]")
    guest.wait_for_url("**/tables/*/")
    for page in (host, guest):
        here_now(page, ["Ana", "Ben"])
    return (host, host_watch), (guest, guest_watch)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tables_pages_in_each_language_on_a_phone_and_a_laptop(open_page, site, seeded,
                                                                     language):
    """Screenshots to look at (SCREENS=1: artifacts/screenshots/together/): the home page's
    entry, the join link, the lobby and the game with a reaction, at 390×844 and 1280×800;
    no console error."""
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site, language,
                                                              shots=True)
    guest.tap('[data-reactions] [data-reaction="nice"]')
    for page, size in ((host, 1280), (guest, 390)):
        page.wait_for_selector(".reaction-bubble")
        shoot(page, f"together/{language}-{size}-lobby", full_page=False)
    start_together(host, guest)
    host.click("[data-react-toggle]")
    shoot(host, f"together/{language}-1280-game-react-panel", full_page=False)
    host.click('#reactions [data-reaction="your_turn"]')
    for page, size in ((host, 1280), (guest, 390)):
        page.wait_for_selector(".reaction-bubble[data-reaction=your_turn]")
        shoot(page, f"together/{language}-{size}-game", full_page=False)
    host_watch.check()
    guest_watch.check()


def test_a_host_who_leaves_hands_the_table_on_and_the_last_to_leave_closes_it(open_page, site):
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    assert guest.locator("[data-start]").is_hidden()
    # A phone shares the link through its share sheet; without one, the link is copied.
    guest.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    guest.reload()
    guest.tap("[data-share]")
    shared = guest.wait_for_function("() => window.__shared").json_value()
    assert shared["url"] == host.locator("[data-link]").input_value()
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    assert host.locator("[data-share]").is_hidden()
    host.click("[data-copy]")
    host.wait_for_selector("[data-status]:has-text('Link copied.')")
    assert host.evaluate("() => navigator.clipboard.readText()") == shared["url"]
    host.click("[data-leave]")  # a first press asks again, in the button
    assert host.locator("[data-leave]").text_content() == "Press again to leave for good"
    host.click("[data-leave]")
    host.wait_for_url(site.url + "/#friends")
    # Ben's lobby hears it: he hosts now, alone, and is told to share the link.
    guest.wait_for_selector(".lobby-seats li.me .badge.host")
    assert guest.locator("[data-start]").is_visible()
    assert guest.locator("[data-start]").get_attribute("aria-disabled") == "true"
    assert "share the link" in guest.locator("[data-state]").text_content()
    assert guest.locator(".lobby-seats li.person").count() == 1
    guest.tap("[data-leave]")
    guest.tap("[data-leave]")
    guest.wait_for_url(site.url + "/#friends")
    assert Table.objects.get().status == Table.CLOSED
    host_watch.check()
    guest_watch.check()
