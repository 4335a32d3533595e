"""The web app in a real browser: Playwright drives Debian's Chromium against
the built app (build/app, made by ``make app``) served by a plain static file
server. The engine runs in the page's Web Worker under Pyodide; what the page
shows is checked against the game record it saves in the browser, read back
here with :func:`spades_core.loads`.

Whole hands are played by tapping on a phone (390×844, touch) and by clicking
on a desktop screen (1280×800) with nothing scrolling sideways; a reload in
the middle of a trick resumes the same position; an exported record replays
with ``spades replay``; after the first visit the app loads and plays with
the network and the server gone. Screenshots go to
build/test-artifacts/web_app/. tests/test_web_app_phone.py holds the phone's
own checks (levels, saves, touch targets, accessibility, a whole game).

These tests fail (never skip) when the build, Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

import spades_core as sc
from web_app_browser_support import (
    WAIT_MS,
    Session,
    assert_all_on_the_first_screen,
    assert_fits_sideways,
    assert_phase,
    check_summary,
    close_sheet,
    downloaded_text,
    hand_cards,
    my_turn,
    open_app,
    open_sheet,
    saved_game,
    saved_record,
    shoot,
    start_game,
    take_my_turn,
    touch,
)
from web_app_support import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, built_app, static_server

pytestmark = pytest.mark.browser


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


@pytest.mark.parametrize(
    ("variant", "viewport"),
    [("mirror", PHONE), ("classic", PHONE), ("mirror", DESKTOP), ("classic", DESKTOP)],
    ids=["mirror-phone", "classic-phone", "mirror-desktop", "classic-desktop"],
)
def test_a_whole_hand_is_played_by_tapping_with_nothing_scrolling_sideways(
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
    touch(page, "[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="hidden", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=phase]').dataset.phase === 'BID'",
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

    name, text = downloaded_text(page, "[data-testid=export]", tmp_path)
    exported = tmp_path / name
    assert name.startswith("spades-classic-")
    assert text == record + "\n"
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
        # The service worker keeps every file, then controls the page.
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT_MS)
        start_game(page, "mirror")
        take_my_turn(page, my_turn(page))  # the bid
        take_my_turn(page, my_turn(page))  # a card
        my_turn(page)  # the bots have played on to South's turn
        record = saved_record(page)
    # The server is gone and the browser is offline: the app comes back from its copy.
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#hand [data-card]:not([disabled])", timeout=WAIT_MS)
    assert saved_record(page) == record
    while (turn := my_turn(page)) != "scored":
        take_my_turn(page, turn)
    game = saved_game(page)
    assert len(game.hand_results) == 1
    check_summary(page, game)
    shoot(page, "offline-summary")
    touch(page, "[data-testid=next-hand]")
    page.wait_for_selector("[data-bid]:not([disabled])", timeout=WAIT_MS)
    assert saved_game(page).hand_number == 1


def test_a_game_ends_with_its_winner_and_play_again_starts_afresh(
    browser: Browser, sessions: list[Session], app_url: str
) -> None:
    page = session(browser, sessions, PHONE)
    open_app(page, app_url)
    touch(page, "[data-variant=whiz]")
    open_sheet(page, "house-rules", "rules-sheet")
    assert page.locator("label[for=option-max_hands]").inner_text() == "Most hands in a game"
    touch(page, "[data-none-for=max_hands]")  # "no limit" off: a limit of 1
    page.fill("[data-option=max_hands]", "1")
    close_sheet(page, "rules-done")
    assert page.locator("[data-testid=house-rules]").inner_text() == "House rules · 1 change"
    start_game(page, "whiz")
    while (turn := my_turn(page)) != "scored":
        take_my_turn(page, turn)
    game = saved_game(page)
    assert game.is_over
    assert game.rules.max_hands == 1
    check_summary(page, game)
    page.wait_for_selector("[data-testid=game-over]:visible", timeout=WAIT_MS)
    winner = page.locator("#winner").inner_text()
    expected = "A draw" if game.winner is None else f"{game.winner.name} wins"
    assert winner.startswith(expected), (winner, expected)
    assert_phase(page, game)
    assert_fits_sideways(page, "end of the game")
    shoot(page, "game-over")
    touch(page, "[data-testid=play-again]")
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)
    assert page.evaluate("localStorage.getItem('spades-app.record')") is None
    assert page.locator("[data-variant=whiz]").is_checked()  # the last game's choices stay
    page.reload()
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)
    assert page.locator("[data-testid=resume]").is_hidden()
