"""The web table in a real browser: Playwright drives Debian's Chromium
against a uvicorn server. A person plays a whole Mirror hand and a whole
classic hand by clicking, a friend joins by link and a spectator watches to
the end of a game; every test runs on a desktop screen and on a phone
(390×844), with nothing scrolling sideways. The page is the one the web app
shares. Screenshots are saved under build/test-artifacts/web_table/.

These tests fail (never skip) when Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from websockets.sync.client import connect

import spades_core as sc
import table_protocol as protocol
from web_app_support import CHROMIUM, CHROMIUM_ARGS, PHONE
from web_table_support import running_server

pytestmark = [pytest.mark.browser, pytest.mark.integration("web")]  # the web table's server

ARTEFACTS = Path(__file__).resolve().parents[1] / "build" / "test-artifacts" / "web_table"
SUIT_ORDER = "SHCD"
RANKS = "23456789TJQKA"
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    with running_server(tmp_path / "tables", bot_delay=0.05) as (url, app):
        yield url, app


VIEWPORTS = {"desktop": {"width": 1200, "height": 800}, "phone": PHONE}


@pytest.fixture(params=["desktop", "phone"])
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(viewport=VIEWPORTS[request.param])  # type: ignore[arg-type]
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    yield opened
    context.close()
    assert not problems, problems


def shoot(page: Page, name: str) -> None:
    """Save a screenshot, named for the screen's size too."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    size = "phone" if page.viewport_size == PHONE else "desktop"
    page.screenshot(path=str(ARTEFACTS / f"{name}-{size}.png"))


def assert_fits_sideways(page: Page, screen: str) -> None:
    width, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= client, f"the {screen} scrolls sideways: {width} px wide in {client}"


def open_table(page: Page, url: str, variant: str, players: dict[str, str]) -> Any:
    """Fill in the start page and open the table; return the table's id."""
    page.goto(url + "/")
    page.wait_for_selector("[data-variant]", timeout=WAIT_MS)
    assert_fits_sideways(page, "start page")
    page.check(f"[data-variant={variant}]")
    page.click("[data-testid=more-levels]")  # the levels seat by seat, friends among them
    for seat, kind in players.items():
        page.select_option(f"#players [data-seat={seat}]", kind)
    page.click("[data-testid=players-done]")
    page.click("[data-testid=start]")
    page.wait_for_url("**/t/*", timeout=WAIT_MS)
    return urlsplit(page.url).path.rsplit("/", 1)[-1]


def my_turn(page: Page) -> str:
    """Wait until this page may bid or play, or its first hand is scored."""
    page.wait_for_function(
        """() => document.querySelector('#history tr')
              || document.querySelector('[data-bid]:not([disabled])')
              || document.querySelector('[data-card]:not([disabled])')""",
        timeout=WAIT_MS,
    )
    if page.locator("#history tr").count():
        return "scored"
    return "bid" if page.locator("[data-bid]:not([disabled])").count() else "play"


def hand_cards(page: Page) -> list[str]:
    return [
        str(card.get_attribute("data-card")) for card in page.locator("#hand [data-card]").all()
    ]


def enabled(page: Page, selector: str, attribute: str) -> list[str]:
    return [
        str(e.get_attribute(attribute)) for e in page.locator(selector + ":not([disabled])").all()
    ]


def play_first_hand_by_clicking(page: Page, app: Any, table_id: str, name: str) -> sc.Game:
    """Bid and play South's whole first hand by clicking; return the game after it."""
    table = app.state.tables.by_id[table_id]
    game: sc.Game
    cards_played = bids_made = 0
    while (turn := my_turn(page)) != "scored":
        assert_fits_sideways(page, "table")
        game = table.game
        assert game.to_act is sc.Seat.SOUTH
        assert page.locator("[data-testid=phase]").get_attribute("data-phase") == game.phase.name
        assert page.locator("#coach-tip").inner_text().startswith("Coach: ")
        cards = hand_cards(page)
        assert cards == sorted(cards, key=lambda c: (SUIT_ORDER.index(c[1]), -RANKS.index(c[0])))
        assert set(cards) == {str(card) for card in game.hand(sc.Seat.SOUTH)}
        if turn == "bid":
            legal = enabled(page, "[data-bid]", "data-bid")
            assert legal == [str(bid) for bid in game.legal_bids()]
            assert page.locator("[data-bid]").count() == 14
            shoot(page, f"{name}-bid")
            page.click(f"[data-bid='{legal[-1]}']")
            page.wait_for_selector("[data-bid]:not([disabled])", state="detached", timeout=WAIT_MS)
            bids_made += 1
        else:
            legal = enabled(page, "[data-card]", "data-card")
            assert set(legal) == {str(card) for card in game.legal_cards()}
            if cards_played == 6:
                shoot(page, f"{name}-play")
            page.click(f"#hand [data-card='{legal[0]}']")
            page.wait_for_selector(
                f"#hand [data-card='{legal[0]}']", state="detached", timeout=WAIT_MS
            )
            cards_played += 1
    assert (bids_made, cards_played) == (1, 13)
    page.wait_for_selector("#history tr", timeout=WAIT_MS)
    # The summary, with its Next hand button unless the hand ended the game.
    page.wait_for_selector(
        "[data-testid=next-hand]:not([disabled]), [data-testid=game-over]:not([hidden])",
        timeout=WAIT_MS,
    )
    assert page.locator("[data-testid=hand-summary]").is_visible()
    assert_fits_sideways(page, "end-of-hand summary")
    shoot(page, f"{name}-scored")
    game = table.game
    result = game.hand_results[0]
    scores = page.locator("[data-testid=scores]").inner_text()
    for team in sc.Team:  # the next hand cannot end without South, so these are current
        shown = f"{result.scores[team]:,}".replace("-", "\N{MINUS SIGN}")
        assert f"{team.name} {shown}" in scores
    row = page.locator("#history tr").first.inner_text()
    assert row.split()[0] == "1"
    return game


def test_a_person_plays_a_whole_mirror_hand_by_clicking(web: tuple[str, Any], page: Page) -> None:
    url, app = web
    table_id = open_table(page, url, "mirror", {"N": "easy", "E": "easy", "W": "easy"})
    my_turn(page)
    # Mirror: exactly one bid is open, and the page says why.
    page.wait_for_selector("[data-bid]:not([disabled])", timeout=WAIT_MS)
    assert page.locator("[data-bid]:not([disabled])").count() == 1
    assert (
        page.locator("[data-testid=bid-note]")
        .inner_text()
        .startswith("In Mirror Spades your bid is your spade count")
    )
    game = play_first_hand_by_clicking(page, app, table_id, "mirror")
    assert game.hand_results[0].bids[sc.Seat.SOUTH] == game.hand_results[0].deal[
        sc.Seat.SOUTH
    ].count(sc.Suit.SPADES)


def test_the_start_page_explains_a_refused_house_rule_in_words(
    web: tuple[str, Any], page: Page
) -> None:
    url, app = web
    page.goto(url + "/")
    page.check("[data-variant=whiz]")
    assert page.locator("[data-target='500']").is_checked()  # the default is shown
    page.click("[data-testid=house-rules]")
    limit = page.locator("[data-option=bag_limit]")
    assert limit.input_value() == "10"
    assert page.locator("[data-option=whiz_nil_needs_no_ace]").count() == 1
    limit.fill("0")
    page.click("[data-testid=rules-done]")
    page.click("[data-testid=start]")
    error = page.locator("[data-testid=form-error]")
    error.wait_for(timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=form-error]').textContent !== ''",
        timeout=WAIT_MS,
    )
    words = protocol.option_refusal(sc.load_variant("whiz"), "bag_limit", 0)
    assert words is not None
    assert error.inner_text() == words  # what the option takes, in the words of the sheet
    assert_fits_sideways(page, "start page with the reason")
    assert not app.state.tables.by_id
    page.click("[data-testid=house-rules]")
    limit.fill("10")
    page.click("[data-testid=rules-done]")
    page.check("[data-target='300']")
    page.click("[data-testid=start]")
    page.wait_for_url("**/t/*", timeout=WAIT_MS)
    page.wait_for_selector("[data-testid=rules]:has-text('Points to win: 300')", timeout=WAIT_MS)
    (table,) = app.state.tables.by_id.values()
    assert table.game.rules.target_score == 300


def test_a_person_plays_a_whole_classic_hand_by_clicking(web: tuple[str, Any], page: Page) -> None:
    url, app = web
    table_id = open_table(page, url, "classic", {"N": "easy", "E": "easy", "W": "easy"})
    game = play_first_hand_by_clicking(page, app, table_id, "classic")
    assert len(game.hand_results) == 1
    if game.is_over:  # South's greedy bid can sink its team below the loss floor
        return
    # The next hand waits for South, who asks for it.
    assert app.state.tables.by_id[table_id].game is game
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="hidden", timeout=WAIT_MS)
    assert app.state.tables.by_id[table_id].game.hand_number == 1


def test_a_friend_joins_by_link_and_both_see_the_same_table(
    web: tuple[str, Any], browser: Browser, page: Page
) -> None:
    url, app = web
    table_id = open_table(page, url, "classic", {"N": "person", "E": "easy", "W": "easy"})
    link = page.locator("[data-invite=N]")
    link.wait_for(timeout=WAIT_MS)
    invite = str(link.get_attribute("href"))
    assert invite.startswith(f"{url}/t/{table_id}?token=")
    friend_context = browser.new_context(viewport=page.viewport_size)
    try:
        friend = friend_context.new_page()
        friend.goto(invite)
        for player in (page, friend):  # both have the dealt hand
            player.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)
        # Links for every other seat and for spectators, shown to the host only.
        assert page.locator("[data-invite]").count() == 4
        assert friend.locator("[data-invite]").count() == 0
        # Bid in turn from both browsers until play starts.
        while "PLAY" not in (
            phases := {
                p.locator("[data-testid=phase]").get_attribute("data-phase") for p in (page, friend)
            }
        ):
            assert phases == {"BID"}, phases
            for player in (page, friend):
                bids = enabled(player, "[data-bid]", "data-bid")
                if bids:
                    player.click(f"[data-bid='{bids[0]}']")
                    player.wait_for_selector(
                        "[data-bid]:not([disabled])", state="detached", timeout=WAIT_MS
                    )
            page.wait_for_timeout(100)
        game = app.state.tables.by_id[table_id].game
        for player in (page, friend):
            player.wait_for_function(
                "() => document.querySelector('[data-testid=phase]').dataset.phase === 'PLAY'",
                timeout=WAIT_MS,
            )
        for seat in sc.Seat:
            texts = {
                p.locator(f"[data-testid=seat-{seat.letter}]").inner_text() for p in (page, friend)
            }
            assert len(texts) == 1, texts
            assert f"bid {game.bids[seat] or 'Nil'}" in texts.pop()
        assert (
            page.locator("[data-testid=scores]").inner_text()
            == friend.locator("[data-testid=scores]").inner_text()
        )
        mine, theirs = set(hand_cards(page)), set(hand_cards(friend))
        assert mine == {str(c) for c in game.hand(sc.Seat.SOUTH)}
        assert theirs == {str(c) for c in game.hand(sc.Seat.NORTH)}
        for player in (page, friend):
            assert_fits_sideways(player, "table")
        shoot(page, "friend-host")
        shoot(friend, "friend-guest")
        # A reload (or a dropped connection) resumes the same seat.
        friend.reload()
        friend.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)
        assert set(hand_cards(friend)) == {
            str(c) for c in app.state.tables.by_id[table_id].game.hand(sc.Seat.NORTH)
        }
    finally:
        friend_context.close()


def test_a_spectator_follows_four_bots_to_the_end_of_game_screen(
    web: tuple[str, Any], page: Page
) -> None:
    url, app = web
    # The API the start page uses, with South left to a bot: the host watches.
    response = page.request.post(
        url + "/api/tables",
        data={
            "variant": "mirror",
            "players": dict.fromkeys("NESW", "easy"),
            "options": {"target_score": 60},
        },
    )
    assert response.ok
    page.goto(url + response.json()["url"])
    page.wait_for_selector("[data-testid=game-over]:not([hidden])", timeout=120_000)
    (table,) = app.state.tables.by_id.values()
    game: sc.Game = table.game
    assert game.is_over
    assert game.winner is not None
    assert_fits_sideways(page, "end-of-game screen")
    shoot(page, "game-over")
    assert page.locator("[data-testid=phase]").get_attribute("data-phase") == "GAME_OVER"
    assert page.locator("#winner").inner_text() == f"{game.winner.name} wins"
    ns, ew = (f"{game.scores[team]:,}".replace("-", "\N{MINUS SIGN}") for team in sc.Team)
    assert page.locator("#final-scores").inner_text() == (
        f"Final score: NS {ns}, EW {ew} "
        f"after {len(game.hand_results)} hand{'' if len(game.hand_results) == 1 else 's'}."
    )
    assert page.locator("#history tr").count() == len(game.hand_results)
    assert page.locator("#hand [data-card]").count() == 0  # a spectator holds no cards


def test_a_spectator_page_refused_for_want_of_room_tries_again_and_gets_in(
    web: tuple[str, Any], page: Page
) -> None:
    url, app = web
    response = page.request.post(
        url + "/api/tables", data={"variant": "classic", "players": dict.fromkeys("NESW", "easy")}
    )
    assert response.ok
    link = response.json()["url"]
    port = urlsplit(url).port
    # Others hold every spectator place the table has (the shared link).
    with ExitStack() as others:
        for _ in range(16):
            ws = others.enter_context(
                connect(f"ws://127.0.0.1:{port}" + link.replace("/t/", "/ws/", 1), proxy=None)
            )
            if json.loads(ws.recv(timeout=30))["type"] != "state":
                break  # the table is full of spectators
        page.goto(url + link)
        page.wait_for_function(
            "() => document.querySelector('#connection').textContent.includes('trying again')",
            timeout=WAIT_MS,
        )
        (table,) = app.state.tables.by_id.values()
        assert table.holders[None] == 8
    # A place is free: the page comes in by itself, and shows the table.
    page.wait_for_function(
        "() => document.querySelector('#connection').textContent === 'connected'",
        timeout=60_000,
    )
    page.wait_for_function(
        "() => ['BID', 'PLAY', 'DEAL', 'GAME_OVER'].includes("
        "document.querySelector('[data-testid=phase]').dataset.phase)",
        timeout=WAIT_MS,
    )
    assert page.locator("#hand [data-card]").count() == 0
