"""Measure the built web app in Chromium: what the first visit downloads,
how long a visit takes to put something on the screen and to let you make
a legal move (the first visit and the later ones, from the browser's copy),
and how long each bot level takes to decide under Pyodide in the browser,
beside CPython on the same positions.

    python examples/web_app/measure.py [--app build/app] [--loads 5] [--hands 2]

Each of ``--loads`` fresh browser profiles (empty storage and caches, a phone's
screen) makes a first visit: the page is opened, *Play* is tapped the moment
the start page shows (with easy bots that act at once, ``?bot-delay=0``), and
the time is read when the first legal bid or card can be tapped. Then the
page is reloaded four times with that game saved: the time until the saved
table is on the screen, and until a legal move can be tapped. Times are from
the start of the navigation (``performance.now()``); the figures are medians
over the profiles. ``--hands 0`` leaves out the bots' timing.

It serves the app from a local static file server (so the network costs
nothing: the first-load time is Pyodide's start plus unpacking the wheels),
drives Debian's Chromium with Playwright, and prints a Markdown table with
the machine's load average, since other work on the machine slows both.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, ClassVar

from playwright.sync_api import Page, sync_playwright

import spades_core as sc

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START = "[data-testid=start]:visible"
SHOWN = "#table-screen:visible #hand [data-card]"
PLAYABLE = "[data-bid]:not([disabled]), #hand [data-card]:not([disabled])"
PHONE = {"width": 390, "height": 844}
SNAPSHOT_KEPT = (
    "async () => (await (await caches.open('spades-engine-snapshot')).keys()).length > 0"
)
RELOADS = 4

POSITIONS = """
import json
import spades_core as sc

def positions(hands):
    # Every decision of a few seeded hands per variant between normal bots, as views.
    found = []
    for variant in ("classic", "mirror", "whiz"):
        game = sc.new_game(variant, seed=2024)
        players = [sc.bots.make("normal", seed=seat) for seat in range(4)]
        while len(game.hand_results) < hands and not game.is_over:
            if game.phase is sc.Phase.DEAL:
                game = game.deal()
                continue
            seat = game.to_act
            view = game.view(seat)
            found.append(view)
            game = game.apply(players[seat].choose(view), seat=seat)
    return found
"""

TIMING = """
import time

def decision_times(views, level):
    # Each decision's time, and the time of them all (browsers round each reading
    # of the clock to 0.1 ms, so quick decisions are timed together).
    decide = sc.coach if level == "coach" else sc.bots.make(level, seed=1).choose
    times = []
    begin = time.perf_counter()
    for view in views:
        start = time.perf_counter()
        decide(view)
        times.append(time.perf_counter() - start)
    return [time.perf_counter() - begin, times]
"""
DECIDERS = (*sc.bots.LEVELS, "coach")


class _Counting(http.server.SimpleHTTPRequestHandler):
    sent: ClassVar[list[int]]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def copyfile(self, source: Any, outputfile: Any) -> None:
        start = source.tell()
        super().copyfile(source, outputfile)
        self.sent.append(source.tell() - start)


def _serve(app: Path) -> tuple[http.server.ThreadingHTTPServer, list[int]]:
    sent: list[int] = []
    handler = type("Handler", (_Counting,), {"sent": sent})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(app))
    )
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, sent


def _at(page: Page, selector: str) -> float:
    """The page's clock, in ms since its navigation began, once ``selector`` shows."""
    page.wait_for_selector(selector, timeout=300_000)
    return float(page.evaluate("performance.now()"))


def _first_paint(page: Page) -> float:
    """When the page first drew something, in ms since its navigation began."""
    return float(
        page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    )


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds >= 0.001 else f"{seconds * 1e6:.0f} µs"


def _stats(total: float, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    mean = total / len(seconds)
    if mean < 0.002:  # too quick for the browser's clock to time one by one
        return f"mean {_duration(mean)}"
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {_duration(statistics.median(ordered))}, p90 {_duration(p90)}"


def measure(app: Path, loads: int, hands: int) -> dict[str, Any]:
    """The numbers, measured once per call."""
    server, sent = _serve(app)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    report: dict[str, Any] = {"load average before": os.getloadavg()}
    first_paint: list[float] = []  # the loading screen, drawn
    first_screen: list[float] = []  # the start page, ready to tap Play
    first_play: list[float] = []
    first_bytes: list[int] = []
    later_screen: list[list[float]] = [[] for _ in range(RELOADS)]
    later_play: list[list[float]] = [[] for _ in range(RELOADS)]
    cached_bytes: list[int] = []
    with sync_playwright() as playwright:
        for _ in range(loads):
            # A fresh profile on disk, as a browser has (a private window's
            # caches in memory keep neither the 8 MiB WebAssembly nor its code).
            profile = tempfile.TemporaryDirectory(prefix="spades-measure-")
            context = playwright.chromium.launch_persistent_context(
                profile.name,
                executable_path=CHROMIUM,
                args=ARGS,
                viewport=PHONE,  # type: ignore[arg-type]
                has_touch=True,
                is_mobile=True,
            )
            page = context.pages[0] if context.pages else context.new_page()
            before = sum(sent)
            page.goto(url + "?bot-delay=0")
            first_screen.append(_at(page, START))
            first_paint.append(_first_paint(page))
            page.tap("[data-level=easy]")
            page.tap("[data-testid=start]")
            first_play.append(_at(page, PLAYABLE))
            # A later visit comes later: the service worker's copy and the
            # engine's snapshot are kept by then.
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=300_000)
            while not page.evaluate(SNAPSHOT_KEPT):
                page.wait_for_timeout(200)
            first_bytes.append(sum(sent) - before)
            # Chromium keeps the compiled WebAssembly after a load or two: later loads are quicker.
            for reload in range(RELOADS):
                before = sum(sent)
                page.reload()
                later_screen[reload].append(_at(page, SHOWN))
                later_play[reload].append(_at(page, PLAYABLE))
                cached_bytes.append(sum(sent) - before)
            context.close()
            profile.cleanup()
        browser_times: dict[str, list[Any]] = {}
        if hands:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            browser_times = _browser_decisions(browser, url, app, hands)
            browser.close()
    server.shutdown()
    _report_decisions(report, browser_times, hands)
    size = sum(path.stat().st_size for path in app.rglob("*") if path.is_file())
    report["app size"] = (
        f"{size / 2**20:.1f} MiB in {sum(1 for p in app.rglob('*') if p.is_file())} files"
    )
    report["first visit, bytes served"] = (
        f"{statistics.median(first_bytes) / 2**20:.1f} MiB (median of {loads})"
    )

    def median_s(times: list[float]) -> str:
        return f"{statistics.median(times) / 1000:.1f} s"

    report["first visit: something on screen (first paint)"] = median_s(first_paint)
    report["first visit: the start page, ready"] = median_s(first_screen)
    report["first visit: Play tapped at once, first legal move"] = median_s(first_play)
    report["later visits, bytes served"] = f"{max(cached_bytes)} at most"
    for reload in range(RELOADS):
        report[f"later visit {reload + 1}: the saved table on screen"] = median_s(
            later_screen[reload]
        )
        report[f"later visit {reload + 1}: first legal move"] = median_s(later_play[reload])
    report["load average after"] = os.getloadavg()
    return report


def _browser_decisions(browser: Any, url: str, app: Path, hands: int) -> dict[str, list[Any]]:
    """Every decider's times on the seeded positions, in the page's own Pyodide."""
    page = browser.new_page()
    page.goto(url)
    _at(page, START)
    build = json.loads((app / "build-info.json").read_text(encoding="utf-8"))
    page.add_script_tag(url="pyodide/pyodide.js")
    browser_times: dict[str, list[Any]] = page.evaluate(
        """async ([wheels, levels, hands, positions, timing]) => {
            const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", location).href });
            await pyodide.loadPackage(wheels.map((w) => new URL(`wheels/${w}`, location).href),
                                      { messageCallback: () => {} });
            pyodide.runPython(positions + timing);
            pyodide.runPython(`views = positions(${hands})`);
            const times = {};
            for (const level of levels) {
                times[level] = pyodide.runPython(`decision_times(views, "${level}")`).toJs();
            }
            return times;
        }""",
        [build["wheels"], list(DECIDERS), hands, POSITIONS, TIMING],
    )
    page.close()
    return browser_times


def _report_decisions(
    report: dict[str, Any], browser_times: dict[str, list[Any]], hands: int
) -> None:
    """The decision times in the browser beside CPython's on the same positions."""
    if not hands:
        return
    namespace: dict[str, Any] = {}
    exec(POSITIONS + TIMING, namespace)
    views = namespace["positions"](hands)
    report["decisions"] = len(views)
    # Both interpreters play the same seeded hands, so a decision has the same index in each.
    bids = [index for index, view in enumerate(views) if view.phase is sc.Phase.BID]
    for level in DECIDERS:
        browser_total, in_browser = browser_times[level]
        cpython_total, in_cpython = namespace["decision_times"](views, level)
        name = "coach's tip" if level == "coach" else f"{level} bot's decision"
        report[name] = (
            f"{_stats(browser_total, in_browser)} in the browser; "
            f"{_stats(cpython_total, in_cpython)} in CPython {sys.version.split()[0]} "
            f"(browser/CPython, all decisions: {browser_total / cpython_total:.1f}×)"
        )
        if level == "hard":
            browser_bids = [in_browser[index] for index in bids]
            cpython_bids = [in_cpython[index] for index in bids]
            report[f"hard bot's bid ({len(bids)} of the decisions)"] = (
                f"{_stats(sum(browser_bids), browser_bids)} in the browser; "
                f"{_stats(sum(cpython_bids), cpython_bids)} in CPython"
            )


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description="Measure the built web app in Chromium.")
    parser.add_argument("--app", type=Path, default=HERE.parents[1] / "build" / "app")
    parser.add_argument("--loads", type=int, default=5, help="fresh browser profiles to time")
    parser.add_argument(
        "--hands", type=int, default=2, help="hands per variant for the bots (0: none)"
    )
    args = parser.parse_args(argv)
    report = measure(args.app, args.loads, args.hands)
    print("| measure | value |\n|---|---|")
    for name, value in report.items():
        shown = ", ".join(f"{v:.1f}" for v in value) if isinstance(value, tuple) else value
        print(f"| {name} | {shown} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
