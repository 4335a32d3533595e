"""What the web app's browser tests share: a browser profile on a phone with
touch (390×844) or a desktop screen, opening the app, the one-tap start,
taking South's turn by tapping with the screen checked against the saved
record, the end-of-hand summary against the library's breakdown, and the
checks every screen must pass: nothing scrolls sideways, every control is at
least 44×44 px where it can be touched, and axe-core finds no serious or
critical violation.

Playwright drives Debian's Chromium (``/usr/bin/chromium``); axe-core comes
from the web app's npm packages (``npm ci`` in examples/web_app, which
``make app`` runs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import spades_core as sc
from spades_core.scoring import score_breakdown
from spades_core.tips import Tip
from web_app_support import ARTEFACTS, PHONE, ROOT

WAIT_MS = 60_000
SUIT_ORDER = "SHCD"
RANKS = "23456789TJQKA"
SOUTH = sc.Seat.SOUTH
MINUS = "\N{MINUS SIGN}"
PHASE_WORDS = {"BID": "Bidding", "PLAY": "Playing", "DEAL": "Hand over", "GAME_OVER": "Game over"}
"""The phase badge's words for each of the engine's phases."""
AXE = ROOT / "examples" / "web_app" / "node_modules" / "axe-core" / "axe.min.js"
TOUCH_TARGET = 44
"""The least width and height, in CSS pixels, of the part of a control that can be touched."""
CONTROLS = (
    "button, a[href], input:not([type=hidden]), select, textarea, summary, "
    "label.button, [role=button]"
)
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

pytestmark = pytest.mark.browser  # Playwright drives Chromium


class Session:
    """One browser profile (fresh storage and service workers) and its page;
    on a phone the screen takes touch, and the tests tap."""

    def __init__(self, browser: Browser, viewport: dict[str, int], **options: Any) -> None:
        self.viewport = viewport
        self.phone = viewport == PHONE
        self.context: BrowserContext = browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            has_touch=self.phone,
            is_mobile=self.phone,
            accept_downloads=True,
            **options,
        )
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(str(error)))

    def close(self) -> None:
        self.context.close()
        assert not self.problems, self.problems


def touch(page: Page, selector: str) -> None:
    """Tap ``selector`` on a touch screen, click it elsewhere."""
    if _has_touch(page):
        page.tap(selector)
    else:
        page.click(selector)


def _has_touch(page: Page) -> bool:
    return bool(page.evaluate("navigator.maxTouchPoints > 0"))


def shoot(page: Page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"))


def assert_fits_sideways(page: Page, screen: str) -> None:
    width, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= client, f"the {screen} scrolls sideways: {width} px wide in {client}"


def assert_all_on_the_first_screen(page: Page, viewport: dict[str, int]) -> None:
    assert page.evaluate("window.scrollY") == 0, "the table is scrolled"
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


_TARGETS_JS = Path(__file__).with_name("touch_targets.js")
_TARGETS_LINES = _TARGETS_JS.read_text(encoding="utf-8").splitlines()
SMALL_TARGETS = "\n".join(line for line in _TARGETS_LINES if not line.startswith("//"))
"""The page function (tests/touch_targets.js, its comment left out) that lists
the controls without a square of the least size to touch."""


def assert_touch_targets(page: Page, screen: str) -> int:
    """Every control shown has a 44×44 square a finger can touch; the number of controls."""
    small = page.evaluate(SMALL_TARGETS, [CONTROLS, TOUCH_TARGET])
    assert not small, (
        f"on the {screen}, controls smaller than {TOUCH_TARGET}×{TOUCH_TARGET}: {small}"
    )
    count: int = page.evaluate(
        "(selector) => [...document.querySelectorAll(selector)]"
        ".filter((c) => c.getBoundingClientRect().width > 0 && !c.closest('[inert]')).length",
        CONTROLS,
    )
    return count


def assert_accessible(page: Page, screen: str) -> None:
    """axe-core finds no serious or critical violation on the screen as it is."""
    assert AXE.is_file(), f"{AXE} is missing: run `npm ci` in examples/web_app (make app does)"
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    grave = [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [node["target"] for node in v["nodes"]][:5],
        }
        for v in results
        if v["impact"] in ("serious", "critical")
    ]
    assert not grave, f"axe-core on the {screen}:\n{json.dumps(grave, indent=1)}"


def open_app(page: Page, url: str, delay: float = 0) -> None:
    """Open the app (bots act after ``delay`` seconds) and wait for the engine."""
    page.goto(f"{url}?bot-delay={delay}")
    page.wait_for_selector(
        "[data-testid=start]:visible, [data-testid=turn]:visible", timeout=WAIT_MS
    )
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=turn]:not(:empty)')"
        " || !document.querySelector('[data-testid=turn]').textContent.startsWith('Starting')",
        timeout=WAIT_MS,
    )


def choose_level(page: Page, kind: str) -> None:
    """Tap the one-tap level chip that plays the bot level ``kind``."""
    touch(page, f"[data-level={kind}]")


def start_game(page: Page, variant: str, level: str = "easy") -> None:
    """The one-tap start: the variant, the opponents' level, Play."""
    touch(page, f"[data-variant={variant}]")
    choose_level(page, level)
    touch(page, "[data-testid=start]")
    page.wait_for_selector("[data-testid=turn]:visible", timeout=WAIT_MS)


def open_sheet(page: Page, opener: str, sheet: str) -> None:
    touch(page, f"[data-testid={opener}]")
    page.wait_for_selector(f"[data-testid={sheet}]:visible", timeout=WAIT_MS)


def close_sheet(page: Page, done: str) -> None:
    touch(page, f"[data-testid={done}]")


def saved_record(page: Page) -> str:
    record = page.evaluate("localStorage.getItem('spades-app.record')")
    assert isinstance(record, str), "no game is saved in the browser"
    return record


def saved_game(page: Page) -> sc.Game:
    """The game the page saved (the worker sends it before the state it shows)."""
    return sc.loads(saved_record(page))


def my_turn(page: Page) -> str:
    """Wait until South may bid or play, or the hand is scored.

    Only what is on the screen counts: after *Play again* the last game's
    table stays in the page, hidden, until the new game's first state
    arrives."""
    page.wait_for_function(
        """() => [
              '[data-testid=hand-summary]:not([hidden])',
              '[data-bid]:not([disabled])',
              '#hand [data-card]:not([disabled])',
            ].some((selector) =>
              [...document.querySelectorAll(selector)].some((node) => node.checkVisibility()))""",
        timeout=WAIT_MS,
    )
    if page.locator("[data-testid=hand-summary]:not([hidden]):visible").count():
        return "scored"
    return "bid" if page.locator("[data-bid]:not([disabled]):visible").count() else "play"


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


RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_name(card: str) -> str:
    """How a card is announced: its rank and suit in words."""
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def assert_phase(page: Page, game: sc.Game) -> None:
    badge = page.locator("[data-testid=phase]")
    assert badge.get_attribute("data-phase") == game.phase.name
    assert badge.inner_text() == PHASE_WORDS[game.phase.name]


def assert_coach(page: Page, tip: Tip) -> None:
    """The coach's reason is on screen once: whole in the tip, or its first
    sentence in the variant's note on the bid and the rest in the tip."""
    coach = page.locator("[data-testid=coach]").inner_text()
    note = page.locator("[data-testid=bid-note]")
    said = note.inner_text() if note.is_visible() else ""
    if said and tip.reason.startswith(said):
        rest = tip.reason[len(said) :].strip()
        assert rest in coach
        assert said not in coach
    else:
        assert tip.reason in coach


def take_my_turn(page: Page, turn: str) -> None:
    """Check the screen against the saved game, then tap the coach's move."""
    game = saved_game(page)
    assert game.to_act is SOUTH
    view = game.view(SOUTH)
    assert_phase(page, game)
    assert page.locator("[data-testid=turn]").inner_text().startswith("Your turn")
    cards = hand_cards(page)
    assert cards == sorted(cards, key=lambda c: (SUIT_ORDER.index(c[1]), -RANKS.index(c[0])))
    assert set(cards) == {str(card) for card in game.hand(SOUTH)}
    for card in cards[:2]:  # each card is announced by its rank and suit
        named = page.get_by_role("button", name=card_name(card), exact=True)
        assert named.get_attribute("data-card") == card
    tip = sc.coach(view)
    assert_coach(page, tip)
    if turn == "bid":
        assert enabled(page, "[data-bid]", "data-bid") == [str(b) for b in game.legal_bids()]
        touch(page, f"[data-bid='{action_text(tip.action)}']")
        page.wait_for_selector("[data-bid]:not([disabled])", state="detached", timeout=WAIT_MS)
    else:
        legal = set(enabled(page, "#hand [data-card]", "data-card"))
        plays = [action for action in game.legal_actions() if isinstance(action, sc.Play)]
        assert legal == {str(play.card) for play in plays}
        card = action_text(tip.action)
        touch(page, f"#hand [data-card='{card}']")
        page.wait_for_selector(f"#hand [data-card='{card}']", state="detached", timeout=WAIT_MS)


def signed(points: int) -> str:
    return f"{'+' if points >= 0 else MINUS}{abs(points):,}"


def number(value: int) -> str:
    """A number as the page writes it: the minus sign U+2212, thousands separated."""
    return f"{value:,}".replace("-", MINUS)


def check_summary(page: Page, game: sc.Game) -> None:
    """The end-of-hand summary shows the hand the saved game just scored,
    item by item as the library itemises it, and its last trick is shown
    once: on the felt."""
    result = game.hand_results[-1]
    summary = page.locator("[data-testid=hand-summary]")
    text = summary.inner_text()
    assert f"Hand {result.number + 1} scored" in text
    for seat in sc.Seat:
        bid = "Nil" if result.bids[seat] == 0 else str(result.bids[seat])
        stats = page.locator(f"[data-testid=seat-{seat.letter}]").inner_text().split()
        assert stats == ["bid", bid, "won", str(result.tricks[seat])], stats
    breakdown = score_breakdown(game)
    for team in sc.Team:
        box = summary.locator(f".team-score[data-team={team.name}]")
        assert box.locator("h4").inner_text().endswith(signed(result.points[team]))
        shown = [
            (line.locator(".label").inner_text(), line.locator("b").inner_text())
            for line in box.locator("li[data-kind]").all()
        ]
        assert shown == [(item.label, signed(item.points)) for item in breakdown.team_items(team)]
        assert f"bags {breakdown.bags_before[team]} → {result.bags[team]}" in box.inner_text()
    last = result.played[-1]
    on_felt = {
        str(e.get_attribute("data-played")) for e in page.locator("#trick [data-played]").all()
    }
    assert on_felt == {str(card) for card in last.cards}
    assert summary.locator("[data-played], .mini").count() == 0
    assert page.locator("#last-trick-box").is_hidden()
    scores = page.locator("[data-testid=scores]").inner_text()
    for team in sc.Team:
        assert f"{team.name} {number(result.scores[team])}" in scores
    assert "-" not in scores + text  # one minus sign, U+2212


def fail_without_axe() -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` in examples/web_app (make app does)", False)


def downloaded_text(page: Page, selector: str, folder: Path) -> tuple[str, str]:
    """Tap ``selector``, which downloads a file: its name and its text."""
    with page.expect_download() as download:
        touch(page, selector)
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    return download.value.suggested_filename, path.read_text(encoding="utf-8")
