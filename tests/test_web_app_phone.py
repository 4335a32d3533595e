"""The web app on a phone (390×844, touch) in Chromium, as a player meets it:
the levels chosen on the start page are the levels that play, after *New
game* and after *Play again*; the start page stays while the bots move; the
table opens at the top; every control has a 44×44 square to touch; axe-core
finds nothing serious; no save is lost, however it is damaged; the saved
game is on screen before the engine has started; the coach is switched
during play; cards move, except under ``prefers-reduced-motion``; and a whole
Classic game is played to its end by tapping, its final score as the record
has it.

These tests fail (never skip) when the build, Chromium, Playwright or axe-core
(examples/web_app/node_modules, from ``npm ci``) is missing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, sync_playwright

import spades_core as sc
from web_app_browser_support import (
    WAIT_MS,
    Session,
    assert_accessible,
    assert_all_on_the_first_screen,
    assert_fits_sideways,
    assert_touch_targets,
    check_summary,
    choose_level,
    close_sheet,
    downloaded_text,
    fail_without_axe,
    hand_cards,
    my_turn,
    number,
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

KEPT = "spades-app.kept."


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    fail_without_axe()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with static_server(built_app()) as server:
        yield server.url


@pytest.fixture
def phone(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Opens phone sessions (fresh profiles), closed and checked for page errors after the test."""
    opened: list[Session] = []

    def open_one(**options: Any) -> Page:
        viewport = options.pop("viewport", PHONE)
        session = Session(browser, viewport, **options)
        opened.append(session)
        return session.page

    yield open_one
    for session in opened:
        session.close()


def seating(page: Page) -> dict[str, Any]:
    text = page.evaluate("localStorage.getItem('spades-app.seating')")
    assert isinstance(text, str)
    found: dict[str, Any] = json.loads(text)
    return found


def seat_words(page: Page) -> dict[str, str]:
    """What the table says plays each other seat."""
    return {
        seat: page.locator(f"#felt [data-at={seat}] .who").inner_text() for seat in ("N", "E", "W")
    }


def new_game_from_the_table(page: Page) -> None:
    touch(page, "[data-testid=new-game]")
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)


def test_the_levels_chosen_after_new_game_are_the_levels_that_play(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    open_app(page, app_url)
    start_game(page, "classic", "easy")
    my_turn(page)
    assert seating(page)["players"] == {"N": "easy", "E": "easy", "S": "person", "W": "easy"}
    assert seat_words(page) == dict.fromkeys("NEW", "Easy bot")
    assert_all_on_the_first_screen(page, PHONE)
    # New game: the one-tap level, in Classic's words (medium is the normal bot).
    new_game_from_the_table(page)
    assert page.locator("[data-testid=levels] label").all_inner_texts() == [
        "Easy",
        "Medium",
        "Hard",
    ]
    choose_level(page, "normal")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    touch(page, "[data-testid=start]")
    my_turn(page)
    assert seating(page)["players"] == {"N": "normal", "E": "normal", "S": "person", "W": "normal"}
    assert seat_words(page) == dict.fromkeys("NEW", "Medium bot")
    assert page.evaluate("window.scrollY") == 0  # the table opens at its top
    assert_all_on_the_first_screen(page, PHONE)
    # And seat by seat, every level one step away.
    new_game_from_the_table(page)
    open_sheet(page, "more-levels", "players-sheet")
    for seat, kind in {"N": "random", "E": "hard", "W": "easy"}.items():
        page.select_option(f"#players [data-seat={seat}]", kind)
    close_sheet(page, "players-done")
    note = page.locator("[data-testid=levels-note]").inner_text()
    assert note == "North Random bot, East Hard bot, West Easy bot."
    touch(page, "[data-testid=start]")
    my_turn(page)
    assert seating(page)["players"] == {"N": "random", "E": "hard", "S": "person", "W": "easy"}
    assert seat_words(page) == {"N": "Random bot", "E": "Hard bot", "W": "Easy bot"}
    # Mirror offers its own words: Easy or Normal.
    new_game_from_the_table(page)
    touch(page, "[data-variant=mirror]")
    assert page.locator("[data-testid=levels] label").all_inner_texts() == ["Easy", "Normal"]


def test_new_game_while_the_bots_move_stays_on_the_start_page(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    open_app(page, app_url, delay=0.4)
    start_game(page, "classic", "easy")
    take_my_turn(page, my_turn(page))  # South bids: at least one bot moves next
    before = saved_record(page)
    new_game_from_the_table(page)
    # The bots play on behind the start page, which stays.
    page.wait_for_function(
        "(before) => localStorage.getItem('spades-app.record') !== before",
        arg=before,
        timeout=WAIT_MS,
    )
    page.wait_for_timeout(3_500)
    assert page.locator("[data-testid=start]").is_visible()
    assert page.locator("#table-screen").is_hidden()
    assert saved_record(page) != before
    # Back to the game, or a new one with the levels chosen now.
    touch(page, "[data-testid=resume]")
    page.wait_for_selector("#table-screen:visible", timeout=WAIT_MS)
    new_game_from_the_table(page)
    choose_level(page, "hard")
    touch(page, "[data-testid=start]")
    page.wait_for_selector("#table-screen:visible", timeout=WAIT_MS)
    assert seating(page)["players"] == {"N": "hard", "E": "hard", "S": "person", "W": "hard"}


def test_every_screen_has_touch_targets_of_44_px_and_no_serious_accessibility_fault(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    open_app(page, app_url)
    checked = 0
    checked += assert_touch_targets(page, "start page")
    assert_accessible(page, "start page")
    shoot(page, "phone-start")
    for opener, sheet, done in (
        ("house-rules", "rules-sheet", "rules-done"),
        ("more-levels", "players-sheet", "players-done"),
    ):
        open_sheet(page, opener, sheet)
        checked += assert_touch_targets(page, sheet)
        assert_accessible(page, sheet)
        shoot(page, f"phone-{sheet}")
        close_sheet(page, done)
    start_game(page, "whiz", "easy")
    seen = set()
    while (turn := my_turn(page)) != "scored":
        if turn not in seen:
            seen.add(turn)
            checked += assert_touch_targets(page, f"table ({turn})")
            assert_accessible(page, f"table ({turn})")
        take_my_turn(page, turn)
    checked += assert_touch_targets(page, "end-of-hand summary")
    assert_accessible(page, "end-of-hand summary")
    assert seen == {"bid", "play"}
    assert checked > 60  # chips, switches, sheets' fields, bids, cards, menus


def test_the_whole_classic_game_is_played_by_tapping_to_its_final_score(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    open_app(page, app_url)
    # The one-tap screen: Classic, easy opponents, 250 to win; two hands at most.
    touch(page, "[data-variant=classic]")
    choose_level(page, "easy")
    touch(page, "[data-target='250']")
    open_sheet(page, "house-rules", "rules-sheet")
    touch(page, "[data-none-for=max_hands]")
    page.fill("[data-option=max_hands]", "2")
    close_sheet(page, "rules-done")
    touch(page, "[data-testid=start]")
    page.wait_for_selector("#table-screen:visible", timeout=WAIT_MS)
    assert seat_words(page) == dict.fromkeys("NEW", "Easy bot")
    rules = page.locator("[data-testid=rules]").inner_text()
    assert rules == "Classic Spades, with house rules: Points to win: 250; Most hands in a game: 2."
    while True:
        turn = my_turn(page)
        if turn == "scored":
            game = saved_game(page)
            check_summary(page, game)
            if game.is_over:
                break
            touch(page, "[data-testid=next-hand]")
            page.wait_for_selector("[data-testid=hand-summary]", state="hidden", timeout=WAIT_MS)
            continue
        assert_all_on_the_first_screen(page, PHONE)
        take_my_turn(page, turn)
    game = saved_game(page)
    assert game.rules.target_score == 250
    assert game.rules.max_hands == 2
    assert 1 <= len(game.hand_results) <= 2
    page.wait_for_selector("[data-testid=game-over]:visible", timeout=WAIT_MS)
    final = page.locator("#final-scores").inner_text()
    hands = len(game.hand_results)
    assert final == (
        f"Final score: NS {number(game.scores[sc.Team.NS])}, EW {number(game.scores[sc.Team.EW])}"
        f" after {hands} hand{'' if hands == 1 else 's'}."
    )
    winner = page.locator("#winner").inner_text()
    assert winner.startswith("A draw" if game.winner is None else f"{game.winner.name} wins")
    assert seat_words(page) == dict.fromkeys("NEW", "Easy bot")
    assert_touch_targets(page, "end of the game")
    assert_accessible(page, "end of the game")
    shoot(page, "phone-game-over")
    # Play again: the levels chosen now are the levels that play.
    touch(page, "[data-testid=play-again]")
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)
    assert page.locator("[data-variant=classic]").is_checked()
    choose_level(page, "hard")
    touch(page, "[data-testid=start]")
    my_turn(page)
    assert seating(page)["players"] == {"N": "hard", "E": "hard", "S": "person", "W": "hard"}
    assert seat_words(page) == dict.fromkeys("NEW", "Hard bot")


# -- saves: damaged in every way, never lost -----------------------------------------


def a_saved_game(page: Page, app_url: str) -> tuple[str, str]:
    """Start a Mirror game, take South's bid: its saved record and seating."""
    open_app(page, app_url)
    start_game(page, "mirror", "easy")
    take_my_turn(page, my_turn(page))
    my_turn(page)
    record = saved_record(page)
    seating_text = page.evaluate("localStorage.getItem('spades-app.seating')")
    assert isinstance(seating_text, str)
    return record, seating_text


def kept(page: Page) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        f"""() => Object.fromEntries(Object.keys(localStorage)
              .filter((key) => key.startsWith('{KEPT}')).map((key) => [key, localStorage[key]]))"""
    )
    return found


DAMAGE: dict[str, Callable[[str, str], dict[str, str | None]]] = {
    "the record cut short": lambda record, seating: {
        "spades-app.record": record[: len(record) // 2],
        "spades-app.seating": seating,
    },
    "a variant this app does not bundle": lambda record, seating: {
        "spades-app.record": record.replace('"variant":"mirror"', '"variant":"moonshot"'),
        "spades-app.seating": seating,
    },
    "the seating damaged": lambda record, seating: {
        "spades-app.record": record,
        "spades-app.seating": seating[:-4],
    },
    "the seating missing": lambda record, seating: {
        "spades-app.record": record,
        "spades-app.seating": None,
    },
    "the record not JSON at all": lambda record, seating: {
        "spades-app.record": "\x00garbage",
        "spades-app.seating": seating,
    },
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=lambda name: name.replace(" ", "-"))
def test_a_damaged_save_is_kept_aside_reported_in_words_and_exported_as_it_was(
    phone: Callable[..., Page], app_url: str, damage: str, tmp_path: Path
) -> None:
    page = phone()
    record, seating_text = a_saved_game(page, app_url)
    damaged = DAMAGE[damage](record, seating_text)
    page.evaluate(
        """(values) => { for (const [key, value] of Object.entries(values)) {
             if (value === null) localStorage.removeItem(key);
             else localStorage.setItem(key, value);
           } }""",
        damaged,
    )
    page.reload()
    page.wait_for_selector("[data-testid=kept]:visible", timeout=WAIT_MS)
    assert page.locator("#start-screen").is_visible()
    words = page.locator("[data-testid=kept]").inner_text()
    assert "saved game is kept aside" in words
    assert "could not be opened" in words
    if damage == "a variant this app does not bundle":
        assert "moonshot" in words
    # Exported as the very text it was, whatever it is.
    name, text = downloaded_text(page, "[data-testid=kept-export]", tmp_path)
    assert text == (damaged["spades-app.record"] or "") + "\n"
    assert name.startswith("spades-")
    assert_touch_targets(page, "start page with a kept save")
    assert_accessible(page, "start page with a kept save")
    shoot(page, f"kept-{damage.replace(' ', '-')}")
    # A new game does not overwrite it, and it is still offered after a reload.
    aside = kept(page)
    assert {value for key, value in aside.items() if key.endswith(".record")} == {
        damaged["spades-app.record"] or ""
    }
    start_game(page, "classic", "easy")
    my_turn(page)
    assert saved_game(page).variant.id == "classic"
    page.reload()
    page.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)
    assert kept(page) == aside
    new_game_from_the_table(page)
    assert page.locator("[data-testid=kept]").is_visible()
    # Discarding asks twice.
    touch(page, "[data-testid=kept-discard]")
    assert kept(page) == aside
    touch(page, "[data-testid=kept-discard]")
    page.wait_for_selector("[data-testid=kept]", state="hidden", timeout=WAIT_MS)
    assert kept(page) == {}


FILL_STORAGE = """() => {
  // Fill this origin's localStorage until it takes no more.
  let chunk = "x".repeat(1 << 20);
  for (let i = 0; chunk.length > 0; ) {
    try {
      localStorage.setItem(`filler.${i}`, chunk);
      i += 1;
    } catch {
      chunk = chunk.slice(0, Math.floor(chunk.length / 2));
    }
  }
}"""


def test_a_damaged_save_with_no_room_to_keep_it_aside_blocks_a_new_game_until_exported(
    phone: Callable[..., Page], app_url: str, tmp_path: Path
) -> None:
    page = phone()
    record, _ = a_saved_game(page, app_url)
    cut = record[: len(record) // 2]
    page.evaluate("(cut) => localStorage.setItem('spades-app.record', cut)", cut)
    page.evaluate(FILL_STORAGE)
    page.reload()
    page.wait_for_selector("[data-testid=kept]:visible", timeout=WAIT_MS)
    words = page.locator("[data-testid=kept]").inner_text()
    assert "no room to keep the saved game aside" in words
    assert kept(page) == {}  # nothing could be copied: it stays where it was
    touch(page, "[data-testid=start]")
    error = page.locator("[data-testid=form-error]")
    error.wait_for(timeout=WAIT_MS)
    assert "export it or discard it first" in error.inner_text()
    assert saved_record(page) == cut  # not overwritten
    _, text = downloaded_text(page, "[data-testid=kept-export]", tmp_path)
    assert text == cut + "\n"
    touch(page, "[data-testid=kept-discard]")
    touch(page, "[data-testid=kept-discard]")
    page.wait_for_selector("[data-testid=kept]", state="hidden", timeout=WAIT_MS)
    page.evaluate(
        "() => Object.keys(localStorage).filter((k) => k.startsWith('filler.'))"
        ".forEach((k) => localStorage.removeItem(k))"
    )
    start_game(page, "classic", "easy")
    my_turn(page)
    assert saved_game(page).variant.id == "classic"


def test_a_save_kept_aside_is_offered_back_once_the_app_can_read_it(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    record, seating_text = a_saved_game(page, app_url)
    # As if an older build had put it aside (a plugin it lacked): readable now.
    page.evaluate(
        """([record, seating]) => {
             localStorage.removeItem('spades-app.record');
             localStorage.removeItem('spades-app.seating');
             localStorage.setItem('spades-app.kept.1700000000000.record', record);
             localStorage.setItem('spades-app.kept.1700000000000.seating', seating);
             localStorage.setItem('spades-app.kept.1700000000000.reason', 'a variant was missing');
           }""",
        [record, seating_text],
    )
    page.reload()
    resume = page.locator("[data-testid=kept-resume]")
    resume.wait_for(timeout=WAIT_MS)
    assert "the app can play it on now" in page.locator("[data-testid=kept]").inner_text()
    touch(page, "[data-testid=kept-resume]")
    page.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)
    assert saved_record(page) == record
    assert kept(page) == {}


def test_a_view_saved_damaged_is_passed_over_and_the_game_resumes(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    record, _ = a_saved_game(page, app_url)
    page.evaluate('localStorage.setItem(\'spades-app.view\', \'{"type": "state", "hand": \')')
    page.reload()
    page.wait_for_selector("#hand [data-card]:not([disabled])", timeout=WAIT_MS)
    assert saved_record(page) == record
    assert kept(page) == {}


def test_an_import_above_the_limit_is_refused_before_it_is_read(
    phone: Callable[..., Page], app_url: str, tmp_path: Path
) -> None:
    page = phone()
    open_app(page, app_url)
    limit = sc.records.MAX_RECORD_SIZE
    assert page.locator("#import-limit").inner_text() == (
        f"A record to import may be up to {limit // 2**20} MB."
    )
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(limit + 1)
    # Were the file read, its text would reach the engine, whose words differ.
    page.evaluate(
        """() => { window.readTexts = 0; const text = File.prototype.text;
             File.prototype.text = function () {
               window.readTexts += 1;
               return text.call(this);
             }; }"""
    )
    page.set_input_files("[data-testid=import]", str(huge))
    error = page.locator("[data-testid=form-error]")
    error.wait_for(timeout=WAIT_MS)
    assert error.inner_text() == (
        f"This file is {(limit + 1) / 2**20:.1f} MB; a game record is at most"
        f" {limit // 2**20} MB, so it was not read."
    )
    assert page.evaluate("window.readTexts") == 0


# -- at once, and while playing -------------------------------------------------------


def hold(page: Page, pattern: str) -> list[Route]:
    """Hold every request for ``pattern`` until released: the engine cannot start."""
    held: list[Route] = []

    def keep(route: Route) -> None:
        held.append(route)

    page.route(pattern, keep)
    return held


def wait_until_held(page: Page, held: list[Route]) -> None:
    """Wait until the page has asked for a held file (so the engine is waiting for it)."""
    for _ in range(WAIT_MS // 100):
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the engine's files were not asked for")


def release(page: Page, held: list[Route], pattern: str) -> None:
    for route in held:
        route.continue_()
    page.unroute(pattern)


def test_the_saved_game_is_on_screen_before_the_engine_starts_and_play_begins_after(
    phone: Callable[..., Page], app_url: str
) -> None:
    # No service worker, so that the test can hold the engine's files at the network.
    page = phone(service_workers="block")
    open_app(page, app_url)
    start_game(page, "classic", "easy")
    take_my_turn(page, my_turn(page))
    my_turn(page)
    record = saved_record(page)
    cards = hand_cards(page)
    pattern = "**/pyodide.asm.wasm"
    held = hold(page, pattern)
    page.reload()
    # The game as it was left, while the engine cannot start.
    page.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)
    wait_until_held(page, held)
    assert hand_cards(page) == cards
    assert page.locator("[data-testid=turn]").inner_text().startswith("Starting the game engine")
    assert page.locator("#hand [data-card]:not([disabled])").count() == 0
    assert_all_on_the_first_screen(page, PHONE)
    release(page, held, pattern)
    page.wait_for_selector("#hand [data-card]:not([disabled])", timeout=WAIT_MS)
    assert saved_record(page) == record
    take_my_turn(page, my_turn(page))
    # Without a saved game, the start page comes at once too, from the last visit's catalogue.
    page.evaluate(
        "['record', 'seating', 'view'].forEach((k) => localStorage.removeItem(`spades-app.${k}`))"
    )
    held = hold(page, pattern)
    page.reload()
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)
    assert page.locator("[data-variant]").count() == 3
    touch(page, "[data-testid=start]")
    assert page.locator("[data-testid=start]").inner_text() == "Starting…"
    release(page, held, pattern)
    page.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)


def test_the_first_visit_says_what_it_loads_and_how_far_it_has_got(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone(service_workers="block")
    pattern = "**/pyodide.asm.wasm"
    held = hold(page, pattern)
    page.goto(app_url)
    page.wait_for_selector("[data-testid=loading]:visible", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.querySelector('#engine-step').textContent.includes('(0 of 3)')",
        timeout=WAIT_MS,
    )
    assert "Starting Python" in page.locator("#engine-step").inner_text()
    release(page, held, pattern)
    page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)


def test_the_first_visit_copies_the_app_and_shows_how_far_it_has_got(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    page.goto(app_url)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT_MS)
    total = sum(
        file["size"]
        for file in json.loads(
            (built_app() / "sw.js")
            .read_text(encoding="utf-8")
            .split("const FILES = ", 1)[1]
            .split(";\n", 1)[0]
        )
    )
    bar = page.locator("#download-bar")
    assert float(str(bar.get_attribute("max"))) == total
    assert float(str(bar.get_attribute("value"))) == total


def test_the_coach_is_switched_off_and_on_during_play(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    open_app(page, app_url)
    start_game(page, "classic", "easy")
    my_turn(page)
    tip = page.locator("#coach-tip")
    assert tip.inner_text().startswith("Coach: ")
    touch(page, "[data-testid=coach-switch]")
    page.wait_for_function(
        "() => document.querySelector('#coach-tip').textContent === 'Tips are off.'",
        timeout=WAIT_MS,
    )
    assert seating(page)["coach"] is False
    page.reload()
    page.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)
    assert not page.locator("[data-testid=coach-switch]").is_checked()
    touch(page, "[data-testid=coach-switch]")
    page.wait_for_function(
        "() => document.querySelector('#coach-tip').textContent.startsWith('Coach: ')",
        timeout=WAIT_MS,
    )
    assert seating(page)["coach"] is True
    take_my_turn(page, my_turn(page))


COUNT_ANIMATIONS = """
window.animationsStarted = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.animationsStarted += 1;
  return animate.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_move_to_the_trick_and_to_its_winner_unless_motion_is_reduced(
    phone: Callable[..., Page], app_url: str, motion: str
) -> None:
    page = phone(reduced_motion=motion, viewport=DESKTOP if motion == "reduce" else PHONE)
    page.add_init_script(COUNT_ANIMATIONS)
    open_app(page, app_url, delay=0.2)
    start_game(page, "mirror", "easy")
    while saved_game(page).phase is not sc.Phase.PLAY or len(saved_game(page).tricks) < 1:
        take_my_turn(page, my_turn(page))
    page.wait_for_selector("#last-trick .mini", timeout=WAIT_MS)  # the first trick, won, shown
    if motion != "reduce":
        # Each card played moves, and the trick won goes to its winner.
        page.wait_for_function("() => window.animationsStarted >= 4 + 4", timeout=WAIT_MS)
    started = page.evaluate("window.animationsStarted")
    transitions = page.evaluate(
        "getComputedStyle(document.querySelector('#hand .card')).transitionDuration"
    )
    if motion == "reduce":
        assert started == 0
        assert transitions == "0s"
    else:
        assert started >= 4 + 4
        assert transitions != "0s"
    assert_fits_sideways(page, "table")


def test_a_later_visit_restores_the_engine_from_the_first_starts_snapshot(
    phone: Callable[..., Page], app_url: str
) -> None:
    page = phone()
    open_app(page, app_url)
    assert page.evaluate("document.documentElement.dataset.engineStart") == "scratch"
    kept_snapshots = (
        "async () => (await (await caches.open('spades-engine-snapshot')).keys()).length"
    )
    for _ in range(WAIT_MS // 200):
        if page.evaluate(kept_snapshots) == 1:
            break
        page.wait_for_timeout(200)
    assert page.evaluate(kept_snapshots) == 1  # one snapshot, of this build
    start_game(page, "classic", "easy")
    take_my_turn(page, my_turn(page))
    my_turn(page)
    record = saved_record(page)
    page.reload()
    page.wait_for_selector("#hand [data-card]:not([disabled])", timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.dataset.engineStart") == "snapshot"
    assert saved_record(page) == record
    take_my_turn(page, my_turn(page))
    # Each new game is dealt afresh, though every start restores the same memory.
    seeds = set()
    for _ in range(2):
        new_game_from_the_table(page)
        touch(page, "[data-testid=start]")
        # The save changes with every move too: wait for the new game's own
        # record, whose seed is not the last game's (a repeated seed times out).
        page.wait_for_function(
            r"""(before) => {
                const saved = localStorage.getItem('spades-app.record');
                // The seed's digits as written (a Number would round them).
                const seed = saved && saved.match(/"seed":\s*(\d+)/);
                return seed !== null && seed[1] !== before;
            }""",
            arg=str(json.loads(record)["seed"]),
            timeout=WAIT_MS,
        )
        record = saved_record(page)
        seeds.add(json.loads(record)["seed"])
        page.reload()
        page.wait_for_selector("#hand [data-card]", timeout=WAIT_MS)
    assert len(seeds) == 2
