"""The built documentation opened as the README says, from the file
``build/site/index.html``, in a real browser (Playwright driving Debian's
Chromium, no server): every link of the navigation opens its page, search
finds pages and opens them, and the navigation and the home page say what
the site holds. Screenshots are saved under build/test-artifacts/docs/.

The site is built the way ``make docs`` builds it, into a temporary
directory. These tests fail (never skip) when Chromium, Playwright or MkDocs
is missing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

import spades_core as sc
from web_app_support import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ARTEFACTS = ROOT / "build" / "test-artifacts" / "docs"
WAIT_MS = 30_000
NEWER_PAGES = ("reliability", "integrations", "web_table", "batch", "rules", "scaling")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as ``make docs`` builds it."""
    target = tmp_path_factory.mktemp("docs") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(target)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    return target


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    # Wide enough for the navigation to show beside the page.
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    # The site is read offline: every file it asks for must be one of its own.
    remote: list[str] = []
    opened.on(
        "request",
        lambda request: (
            remote.append(request.url)
            if not request.url.startswith(("file:", "data:", "blob:", "about:"))
            else None
        ),
    )
    yield opened
    context.close()
    assert problems == []
    assert remote == []


def shoot(page: Page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"))


def file_of(url: str) -> Path:
    """The file a ``file:`` URL names, without its fragment."""
    parts = urlsplit(url)
    assert parts.scheme == "file", url
    return Path(unquote(parts.path))


def navigation(page: Page) -> list[tuple[str, str]]:
    """``(title, href)`` of every page in the main navigation, in order."""
    links: list[list[str]] = page.eval_on_selector_all(
        "nav.md-nav--primary a.md-nav__link[href]",
        "links => links.map(link => [link.textContent.trim(), link.getAttribute('href')])",
    )
    return [(title, href) for title, href in links if not href.startswith("#")]


def test_every_navigation_link_opens_its_page_from_the_file(site: Path, page: Page) -> None:
    index = site / "index.html"
    page.goto(index.as_uri())
    pages = navigation(page)
    assert len(pages) == len(list((ROOT / "docs").rglob("*.md")))
    for number, (title, href) in enumerate(pages):
        page.goto(index.as_uri())
        link = page.locator(f'nav.md-nav--primary a.md-nav__link[href="{href}"]').first
        link.click()
        page.wait_for_load_state("load", timeout=WAIT_MS)
        opened = file_of(page.url)
        # A page of the site, not a folder the browser lists.
        assert opened.is_file(), f"{title}: {page.url} is not a file"
        assert opened.suffix == ".html"
        assert opened.resolve().is_relative_to(site.resolve())
        assert "Index of" not in page.title()
        assert page.locator("article h1").count() == 1, f"{title}: no page at {page.url}"
        active = page.locator("nav.md-nav--primary .md-nav__link--active").first
        assert active.inner_text().strip() == title
        if number % 5 == 0:
            shoot(page, f"nav-{opened.stem}")


def test_every_link_of_the_home_page_leads_to_a_page_of_the_site(site: Path, page: Page) -> None:
    page.goto((site / "index.html").as_uri())
    hrefs: list[str] = page.eval_on_selector_all(
        "article a[href]", "links => links.map(link => link.href)"
    )
    local = [href for href in hrefs if href.startswith("file:")]
    assert len(local) >= 20
    for href in local:
        target = file_of(href)
        assert target.is_file(), f"the home page links to {href}, which is no file"
        assert target.suffix in (".html", ".png", ".svg"), href


def test_search_finds_pages_and_opens_them_from_the_file(site: Path, page: Page) -> None:
    page.goto((site / "index.html").as_uri())
    search = page.locator("input.md-search__input")
    search.click()
    # The index is read and built first ("Initializing search"), then search is ready.
    page.wait_for_function(
        "() => document.querySelector('.md-search-result__meta')"
        ".textContent.includes('Type to start searching')",
        timeout=WAIT_MS,
    )
    search.press_sequentially("journal")
    first = page.locator(".md-search-result__item a").first
    first.wait_for(timeout=WAIT_MS)
    meta = page.locator(".md-search-result__meta").inner_text()
    assert re.match(r"\d+ matching documents?", meta), meta
    results = page.eval_on_selector_all(
        ".md-search-result__item a", "links => links.map(link => link.href)"
    )
    assert any(file_of(href).name == "scaling.html" for href in results), results
    shoot(page, "search-results")
    first.click()
    page.wait_for_load_state("load", timeout=WAIT_MS)
    assert file_of(page.url).is_file()
    assert page.locator("article h1").count() == 1
    shoot(page, "search-opened")


def test_the_navigation_keeps_the_reference_last_and_the_newer_pages_with_their_kin(
    site: Path, page: Page
) -> None:
    page.goto((site / "index.html").as_uri())
    order = [href.removesuffix(".html") for _, href in navigation(page)]
    assert order[0] == "index"
    assert order[-1] == "api", "the API reference closes the navigation"
    for name in NEWER_PAGES:
        assert name in order
    # Each newer page sits beside the pages on the same subject.
    assert order.index("rules") == order.index("options") + 1
    assert order.index("web_table") == order.index("cli") + 1
    assert order.index("integrations") == order.index("encoding") + 1
    assert order.index("batch") == order.index("integrations") + 1
    assert order.index("scaling") < order.index("performance")
    assert order.index("reliability") < order.index("design") < order.index("api")


def test_the_home_page_says_what_make_run_does_and_where_to_start_for_everything() -> None:
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    # make run shows bots playing one hand: the home page says just that.
    assert "spades watch" in run_recipe
    assert "--hands 1" in run_recipe
    run_line = next(line for line in home.splitlines() if line.startswith("make run "))
    assert "four bots playing one hand" in run_line
    assert "sample game" not in home
    start = home.split("## Where to start", 1)[1].split("\n## ", 1)[0]
    for page_name in ("integrations.md", "web_table.md", "batch.md", "scaling.md"):
        assert f"]({page_name})" in start, f"Where to start does not lead to {page_name}"


def test_the_testing_page_says_games_draws_random_house_rules_and_shows_how_to_fix_them() -> None:
    page = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    said = page.split("`games(variant)` also draws **random house rules** unless told otherwise", 1)
    assert len(said) == 2, "docs/testing.md does not say that games() draws house rules"
    after = said[1]
    assert "options=st.just({})" in after.split("```", 1)[0]
    code = after.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {"__name__": "__docs__", "sc": sc}
    exec(compile(code, "docs/testing.md", "exec"), namespace)
    varied = namespace["varied"]
    same = namespace["same"]
    assert isinstance(varied, sc.Game)
    assert isinstance(same, sc.Game)
    assert varied.rules != sc.load_variant("classic").rules()
    assert same.rules == sc.load_variant("classic").rules()
