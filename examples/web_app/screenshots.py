"""Take the screenshots of docs/web_app.md: the built app (build/app) in
Chromium on a phone (390×844, touch) and a desktop screen (1280×800), from
the start page through a hand to its score.

    python examples/web_app/screenshots.py [--app build/app] [--out docs/images]

South plays the coach's move each turn; the bots are easy and quick.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
WAIT_MS = 120_000
MY_TURN = "[data-bid]:not([disabled]), #hand [data-card]:not([disabled]), [data-testid=next-hand]"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _coach_move(page: Page) -> None:
    """Tap what the coach suggests (its move is in the state the page shows),
    and wait until the page has taken it."""
    tip = page.locator("#coach-tip h3").inner_text()
    if tip.startswith("Coach: bid "):
        bid = tip.removeprefix("Coach: bid ")
        page.locator(f"[data-bid='{0 if bid == 'Nil' else bid}']").tap()
        taken = "[data-bid]:not([disabled])"
    else:
        card = tip.rsplit("(", 1)[1].rstrip(")")
        suits = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
        rank = "T" if card[:-1] == "10" else card[:-1]
        taken = f"#hand [data-card='{rank}{suits[card[-1]]}']"
        page.locator(taken).tap()
    page.wait_for_selector(taken, state="detached", timeout=WAIT_MS)


def shoot(app: Path, out: Path) -> list[Path]:
    """Every screenshot, for both screens; the files written."""
    handler = functools.partial(_Quiet, directory=str(app))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?bot-delay=0.05"
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, viewport in SCREENS.items():
            context = browser.new_context(
                viewport=viewport,  # type: ignore[arg-type]
                has_touch=True,
                is_mobile=name == "phone",
                reduced_motion="reduce",  # still pictures, with no card caught moving
            )
            page = context.new_page()

            def take(screen: str, page: Page = page, name: str = name) -> None:
                path = out / f"web-app-{name}-{screen}.png"
                page.screenshot(path=str(path))
                written.append(path)

            page.goto(url)
            page.wait_for_selector("[data-testid=start]:visible", timeout=WAIT_MS)
            page.locator("[data-variant=classic]").tap()
            page.locator("[data-level=easy]").tap()
            take("start")
            page.locator("[data-testid=house-rules]").tap()
            take("house-rules")
            page.locator("[data-testid=rules-done]").tap()
            page.locator("[data-testid=start]").tap()
            page.wait_for_selector("[data-bid]:not([disabled])", timeout=WAIT_MS)
            take("bid")
            plays = 0
            while True:
                page.wait_for_selector(MY_TURN, timeout=WAIT_MS)
                if page.locator("[data-testid=next-hand]").count():
                    take("score")
                    break
                if page.locator("#hand [data-card]:not([disabled])").count():
                    plays += 1
                    if plays == 4:
                        page.wait_for_timeout(300)
                        take("play")
                _coach_move(page)
            context.close()
        browser.close()
    server.shutdown()
    return written


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots and say where they went."""
    parser = argparse.ArgumentParser(description="Screenshots of the web app for its docs.")
    parser.add_argument("--app", type=Path, default=ROOT / "build" / "app")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    for path in shoot(args.app, args.out):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
