"""The web app in a real browser: Playwright drives Debian's Chromium against
the built app (build/app, made by ``make app``) served by a plain static file
server. The engine runs in the page's Web Worker under Pyodide; what the page
shows is checked against the game record it saves in the browser, read back
here with :func:`spades_core.loads`.

Whole hands are played by clicking on a phone (390×844) and a desktop screen
(1280×800) with nothing scrolling sideways; a reload in the middle of a trick
resumes the same position; an exported record replays with ``spades
replay``; after the first visit the app loads and plays with the network and
the server gone. Screenshots go to build/test-artifacts/web_app/.

These tests fail (never skip) when the build, Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

import spades_core as sc
from spades_core.rules.hooks import score_breakdown
from web_app_support import (
    ARTEFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    built_app,
    static_server,
)

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
SUIT_ORDER = "SHCD"
RANKS = "23456789TJQKA"
SOUTH = sc.Seat.SOUTH
ON_SCREEN = {
    "both scores": "[data-testid=scores]",
    "the turn banner": "[data-testid=turn]",
    "North": "#seat-top",
    "East": "#seat-right",
    "West": "#seat-left",
    "South": "#seat-bottom",
    "the trick": "[data-testid=trick]",
    "the hand": "[data-testid=hand]",
    "the coach": "[data-testid=coach]",
}
"""What must be on the first screen of a phone while you play, by selector."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    """The app served from a folder of a site, not its root: it finds all its
    files by relative addresses."""
    app = built_app()
    with static_server(app.parent) as server:
        yield f"{server.url}{app.name}/"


class Session:
    """One browser profile (fresh storage and service workers) and its page."""

    def __init__(self, browser: Browser, viewport: dict[str, int]) -> None:
        self.viewport = viewport
        self.context: BrowserContext = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))

    def close(self) -> None:
        self.context.close()
        assert not self.problems, self.problems


@pytest.fixture
def sessions(browser: Browser) -> Iterator[list[Session]]:
    opened: list[Session] = []
    yield opened
    for session in opened:
        session.close()


def session(browser: Browser, sessions: list[Session], viewport: dict[str, int]) -> Page:
    opened = Session(browser, viewport)
    sessions.append(opened)
    return opened.page


def shoot(page: Page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"))


def assert_fits_sideways(page: Page, screen: str) -> None:
    width, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= client, f"the {screen} scrolls sideways: {width} px wide in {client}"


def assert_all_on_the_first_screen(page: Page, viewport: dict[str, int]) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    for name, selector in ON_SCREEN.items():
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{name} is not shown"
        inside = (
            box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= viewport["width"]
            and box["y"] + box["height"] <= viewport["height"]
        )
        assert inside, f"{name} is not on the first screen: {box}"


def open_app(page: Page, url: str) -> None:
    """Open the app (bots act at once) and wait for the engine."""
    page.goto(url + "?bot-delay=0")
    page.wait_for_selector(
        "[data-testid=start]:visible, [data-testid=turn]:visible", timeout=WAIT_MS
    )


def start_game(page: Page, variant: str, level: str = "easy") -> None:
    page.check(f"[data-variant={variant}]")
    for seat in "NEW":
        page.select_option(f"[data-seat={seat}]", level)
    page.click("[data-testid=start]")


def saved_record(page: Page) -> str:
    record = page.evaluate("localStorage.getItem('spades-app.record')")
    assert isinstance(record, str), "no game is saved in the browser"
    return record


def saved_game(page: Page) -> sc.Game:
    """The game the page saved (the worker sends it before the state it shows)."""
    return sc.loads(saved_record(page))


def my_turn(page: Page) -> str:
    """Wait until South may bid or play, or the hand is scored."""
    page.wait_for_function(
        """() => document.querySelector('[data-testid=hand-summary]:not([hidden])')
              || document.querySelector('[data-bid]:not([disabled])')
              || document.querySelector('#hand [data-card]:not([disabled])')""",
        timeout=WAIT_MS,
    )
    if page.locator("[data-testid=hand-summary]:not([hidden])").count():
        return "scored"
    return "bid" if page.locator("[data-bid]:not([disabled])").count() else "play"


def enabled(page: Page, selector: str, attribute: str) -> list[str]:
    return [
        str(e.get_attribute(attribute)) for e in page.locator(selector + ":not([disabled])").all()
    ]


def hand_cards(page: Page) -> list[str]:
    return [
        str(card.get_attribute("data-card")) for card in page.locator("#hand [data-card]").all()
    ]


def action_text(action: sc.Action) -> str:
    if isinstance(action, sc.Bid):
        return str(action.value)
    assert isinstance(action, sc.Play)
    return str(action.card)


def take_my_turn(page: Page, turn: str) -> None:
    """Check the screen against the saved game, then click the coach's move."""
    game = saved_game(page)
    assert game.to_act is SOUTH
    view = game.view(SOUTH)
    assert page.locator("[data-testid=phase]").inner_text() == game.phase.name
    assert page.locator("[data-testid=turn]").inner_text().startswith("Your turn")
    cards = hand_cards(page)
    assert cards == sorted(cards, key=lambda c: (SUIT_ORDER.index(c[1]), -RANKS.index(c[0])))
    assert set(cards) == {str(card) for card in game.hand(SOUTH)}
    tip = sc.coach(view)
    coach = page.locator("[data-testid=coach]").inner_text()
    assert tip.reason in coach
    if turn == "bid":
        assert enabled(page, "[data-bid]", "data-bid") == [str(b) for b in game.legal_bids()]
        page.click(f"[data-bid='{action_text(tip.action)}']")
        page.wait_for_selector("[data-bid]:not([disabled])", state="detached", timeout=WAIT_MS)
    else:
        legal = set(enabled(page, "#hand [data-card]", "data-card"))
        plays = [action for action in game.legal_actions() if isinstance(action, sc.Play)]
        assert legal == {str(play.card) for play in plays}
        card = action_text(tip.action)
        page.click(f"#hand [data-card='{card}']")
        page.wait_for_selector(f"#hand [data-card='{card}']", state="detached", timeout=WAIT_MS)


def signed(points: int) -> str:
    return f"{'+' if points >= 0 else '−'}{abs(points)}"


def check_summary(page: Page, game: sc.Game) -> None:
    """The end-of-hand summary shows the hand the saved game just scored,
    item by item as the library itemises it."""
    result = game.hand_results[-1]
    summary = page.locator("[data-testid=hand-summary]")
    text = summary.inner_text()
    assert f"Hand {result.number + 1} scored" in text
    for seat in sc.Seat:
        bid = "Nil" if result.bids[seat] == 0 else str(result.bids[seat])
        assert f"{seat.letter} bid {bid}, won {result.tricks[seat]}" in text
    breakdown = score_breakdown(game)
    for team in sc.Team:
        box = summary.locator(f".team-score[data-team={team.name}]")
        assert box.locator("h4").inner_text().endswith(signed(result.points[team]))
        shown = [
            (line.locator(".label").inner_text(), line.locator("b").inner_text())
            for line in box.locator("li").all()
        ]
        assert shown == [(item.label, signed(item.points)) for item in breakdown.team_items(team)]
        assert f"bags {breakdown.bags_before[team]} → {result.bags[team]}" in box.inner_text()
    # The last trick stays on the felt, and in the summary in the order it was played.
    last = result.played[-1]
    on_felt = {
        str(e.get_attribute("data-played")) for e in page.locator("#trick [data-played]").all()
    }
    assert on_felt == {str(card) for card in last.cards}
    in_summary = summary.locator(".mini").all_inner_texts()
    assert [text.split()[0] for text in in_summary] == [seat.letter for seat, _ in last.plays]
    scores = page.locator("[data-testid=scores]").inner_text()
    for team in sc.Team:
        assert f"{team.name} {result.scores[team]}" in scores


@pytest.mark.parametrize(
    ("variant", "viewport"),
    [("mirror", PHONE), ("classic", PHONE), ("mirror", DESKTOP), ("classic", DESKTOP)],
    ids=["mirror-phone", "classic-phone", "mirror-desktop", "classic-desktop"],
)
def test_a_whole_hand_is_played_by_clicking_with_nothing_scrolling_sideways(
    browser: Browser,
    sessions: list[Session],
    app_url: str,
    variant: str,
    viewport: dict[str, int],
) -> None:
    page = session(browser, sessions, viewport)
    name = f"{variant}-{'phone' if viewport is PHONE else 'desktop'}"
    open_app(page, app_url)
    assert_fits_sideways(page, "start page")
    offered = [str(e.get_attribute("data-variant")) for e in page.locator("[data-variant]").all()]
    assert offered == ["classic", "mirror", "whiz"]  # the variants the app bundles
    shoot(page, f"{name}-start")
    start_game(page, variant)
    turns = {"bid": 0, "play": 0}
    while (turn := my_turn(page)) != "scored":
        assert_fits_sideways(page, f"table ({turn})")
        if viewport is PHONE:
            assert_all_on_the_first_screen(page, viewport)
        if turns["play"] == 5:
            shoot(page, f"{name}-play")
        take_my_turn(page, turn)
        turns[turn] += 1
    assert turns == {"bid": 1, "play": 13}
    game = saved_game(page)
    assert game.phase is sc.Phase.DEAL
    assert len(game.hand_results) == 1
    check_summary(page, game)
    assert_fits_sideways(page, "end-of-hand summary")
    shoot(page, f"{name}-summary")
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="hidden", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=phase]').textContent === 'BID'",
        timeout=WAIT_MS,
    )
    assert saved_game(page).hand_number == 1


def play_until_mid_trick(page: Page) -> None:
    """Play until South is to play into a trick others have started."""
    while True:
        turn = my_turn(page)
        assert turn != "scored", "the hand ended before South played into a trick"
        game = saved_game(page)
        if turn == "play" and game.current_trick:
            return
        take_my_turn(page, turn)


def test_a_reload_mid_trick_resumes_the_same_position_and_the_record_exports_and_imports(
    browser: Browser, sessions: list[Session], app_url: str, tmp_path: Path
) -> None:
    page = session(browser, sessions, DESKTOP)
    open_app(page, app_url)
    start_game(page, "classic")
    play_until_mid_trick(page)
    record = saved_record(page)
    shown = (hand_cards(page), page.locator("#trick").inner_text())
    page.reload()
    page.wait_for_selector("#hand [data-card]:not([disabled])", timeout=WAIT_MS)
    assert saved_record(page) == record  # the very same game, resumed
    assert (hand_cards(page), page.locator("#trick").inner_text()) == shown

    with page.expect_download() as download:
        page.click("[data-testid=export]")
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert exported.name.startswith("spades-classic-")
    assert exported.read_text(encoding="utf-8") == record + "\n"
    replay = subprocess.run(
        [str(Path(sys.executable).with_name("spades")), "replay", "--json", str(exported)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr
    report = json.loads(replay.stdout)
    assert report["ok"] is True
    assert report["phase"] == "PLAY"

    # Another browser imports the file and plays on from the same position.
    other = session(browser, sessions, PHONE)
    open_app(other, app_url)
    broken = tmp_path / "broken.json"
    broken.write_text(record.replace('"plays":["', '"plays":["ZZ", "'), encoding="utf-8")
    other.set_input_files("[data-testid=import]", str(broken))
    error = other.locator("[data-testid=form-error]")
    error.wait_for(timeout=WAIT_MS)
    with pytest.raises(sc.RecordFormatError) as refused:
        sc.loads(broken.read_text(encoding="utf-8"))
    assert str(refused.value) in error.inner_text()
    other.set_input_files("[data-testid=import]", str(exported))
    other.wait_for_selector("#hand [data-card]:not([disabled])", timeout=WAIT_MS)
    assert saved_record(other) == record
    assert hand_cards(other) == shown[0]


def test_after_the_first_visit_the_app_loads_and_plays_a_hand_with_no_network(
    browser: Browser, sessions: list[Session]
) -> None:
    page = session(browser, sessions, PHONE)
    context = sessions[-1].context
    with static_server(built_app()) as server:
        open_app(page, server.url)
        # The service worker keeps every file before the engine starts, and controls the page.
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        start_game(page, "mirror")
        take_my_turn(page, my_turn(page))  # the bid
        take_my_turn(page, my_turn(page))  # a card
        my_turn(page)  # the bots have played on to South's turn
        record = saved_record(page)
    # The server is gone and the browser is offline: the app comes back from its copy.
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("[data-testid=turn]:visible", timeout=WAIT_MS)
    assert saved_record(page) == record
    while (turn := my_turn(page)) != "scored":
        take_my_turn(page, turn)
    game = saved_game(page)
    assert len(game.hand_results) == 1
    check_summary(page, game)
    shoot(page, "offline-summary")
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-bid]:not([disabled])", timeout=WAIT_MS)
    assert saved_game(page).hand_number == 1


def test_a_game_ends_with_its_winner_and_a_new_game_starts_afresh(
    browser: Browser, sessions: list[Session], app_url: str
) -> None:
    page = session(browser, sessions, PHONE)
    open_app(page, app_url)
    page.check("[data-variant=whiz]")
    assert page.locator("label[for=option-max_hands]").inner_text() == "Most hands in a game"
    page.fill("[data-option=max_hands]", "1")
    start_game(page, "whiz")
    while my_turn(page) != "scored":
        take_my_turn(page, my_turn(page))
    game = saved_game(page)
    assert game.is_over
    assert game.rules.max_hands == 1
    check_summary(page, game)
    page.wait_for_selector("[data-testid=game-over]:visible", timeout=WAIT_MS)
    winner = page.locator("#winner").inner_text()
    expected = "A draw" if game.winner is None else f"{game.winner.name} wins"
    assert winner.startswith(expected), (winner, expected)
    assert page.locator("[data-testid=phase]").inner_text() == "GAME_OVER"
    assert_fits_sideways(page, "end of the game")
    shoot(page, "game-over")
    page.click("#play-again")
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)
    assert page.evaluate("localStorage.getItem('spades-app.record')") is None
    page.reload()
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)
    assert page.locator("[data-testid=resume]").is_hidden()
