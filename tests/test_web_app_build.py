"""The built web app (build/app, made by ``make app``) as files: everything the
page, the worker and the service worker ask for is there, the service worker
keeps every file, the manifest makes it installable, and a build that no
longer matches its sources is told apart."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from web_app_support import ROOT, builder, built_app

# The build of the app (make app, with Node): the browser tooling, left out with
# the browser tests where it is not installed.
pytestmark = pytest.mark.browser


def test_the_build_holds_everything_its_page_worker_and_service_worker_load() -> None:
    app = built_app()
    info = json.loads((app / "build-info.json").read_text(encoding="utf-8"))
    assert (
        info["pyodide"]
        == json.loads((ROOT / "examples" / "web_app" / "package.json").read_text(encoding="utf-8"))[
            "dependencies"
        ]["pyodide"]
    )
    assert sorted(info["wheels"]) == sorted(path.name for path in (app / "wheels").iterdir())
    assert info["wheels"][0].startswith("spades_core-")
    assert all(name.endswith("-none-any.whl") for name in info["wheels"])
    for module in info["python"]:
        assert (app / "python" / module).is_file()
    for name in builder.PYODIDE_FILES:
        assert (app / "pyodide" / name).is_file()
    page = (app / "index.html").read_text(encoding="utf-8")
    # Relative addresses only, so the app works from any folder of a site.
    linked = re.findall(r'(?:href|src)="([^"]+)"', page)
    assert linked
    for address in linked:
        assert not address.startswith(("/", "http:", "https:")), address
        target = app / address
        assert target.is_file() or (target / "index.html").is_file(), address
    assert '<meta name="spades-transport" content="worker">' in page
    service_worker = (app / "sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const FILES = (\[.*?\]);", service_worker, re.S)
    assert listed is not None
    kept = json.loads(listed[1])
    every_file = sorted(
        path.relative_to(app).as_posix()
        for path in app.rglob("*")
        if path.is_file() and path.name != "sw.js"
    )
    assert [file["path"] for file in kept] == ["./", *every_file]
    # Each file with its size and digest, so the copy is checked to be of this build.
    assert kept[0] == {"path": "./", "size": (app / "index.html").stat().st_size, "sha256": None}
    for file in kept[1:]:
        content = (app / file["path"]).read_bytes()
        assert file["size"] == len(content)
        assert file["sha256"] == hashlib.sha256(content).hexdigest()
    assert "__VERSION__" not in service_worker


def test_the_manifest_makes_the_app_installable() -> None:
    app = built_app()
    manifest = json.loads((app / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./"
    sizes = set()
    for icon in manifest["icons"]:
        assert (app / icon["src"]).is_file(), icon
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


def test_a_build_that_no_longer_matches_its_sources_is_told_apart(tmp_path: Path) -> None:
    app = built_app()
    copy = tmp_path / "app"
    shutil.copytree(app, copy, ignore=shutil.ignore_patterns("pyodide", "wheels"))
    assert builder.stale_inputs(copy) == []
    info = json.loads((copy / "build-info.json").read_text(encoding="utf-8"))
    info["inputs"]["src/spades_core/game.py"] = "0" * 64
    del info["inputs"]["examples/web_app/worker.js"]
    info["inputs"]["src/spades_core/gone.py"] = "0" * 64
    (copy / "build-info.json").write_text(json.dumps(info), encoding="utf-8")
    assert builder.stale_inputs(copy) == [
        "examples/web_app/worker.js",
        "src/spades_core/game.py",
        "src/spades_core/gone.py",
    ]
    assert builder.stale_inputs(tmp_path / "nothing") == ["(no complete build)"]
