"""A Griffe extension that lets the API reference render our docstrings.

The docstrings are written for ``help()`` and doctest: reST roles such as
``:class:`Game``` and ``>>>`` examples. Markdown would show the roles
literally and read ``>>>`` as nested block quotes, so this extension rewrites
each docstring when Griffe loads it: roles become code spans, doctest
paragraphs become ``pycon`` code blocks, and a paragraph ending in ``::``
(a reST literal block) ends in ``:``.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|exc|obj|const):`(~?)([^`]+)`")


def _role_to_code(match: re.Match[str]) -> str:
    tilde, target = match.groups()
    # ``~a.b.C`` shows as ``C`` in Sphinx; keep the same short form.
    if tilde:
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def rst_to_markdown(text: str) -> str:
    """The docstring ``text`` with roles, doctests and ``::`` made Markdown."""
    text = _ROLE.sub(_role_to_code, text)
    out: list[str] = []
    in_doctest = False
    for line in text.splitlines():
        starts_doctest = line.lstrip().startswith(">>>")
        if starts_doctest and not in_doctest:
            if out and out[-1].strip():
                out.append("")
            out.append("```pycon")
            in_doctest = True
        elif in_doctest and not line.strip():
            out.append("```")
            in_doctest = False
        if not in_doctest and line.rstrip().endswith("::"):
            line = "" if line.strip() == "::" else line.rstrip()[:-1]
        out.append(line)
    if in_doctest:
        out.append("```")
    return "\n".join(out)


class RstToMarkdown(griffe.Extension):
    """Rewrite every loaded docstring with :func:`rst_to_markdown`."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        _convert(obj)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        # The top-level package is reported here, not to on_object.
        _convert(pkg)


def _convert(obj: griffe.Object) -> None:
    docstring = obj.docstring
    if docstring is not None and not getattr(docstring, "_markdown", False):
        docstring.value = rst_to_markdown(docstring.value)
        docstring._markdown = True  # type: ignore[attr-defined]
