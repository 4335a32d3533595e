"""The root conftest: the extras hooks of ``tests/extras_support.py`` apply to
the whole run, the library's doctests included (a conftest under ``tests/``
would not see ``src/``)."""

from extras_support import (  # tests/ is on the path (pyproject's pythonpath)
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_ignore_collect,
    pytest_report_header,
    pytest_terminal_summary,
)

__all__ = [
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_ignore_collect",
    "pytest_report_header",
    "pytest_terminal_summary",
]
