"""Opening a file a user named, refusing anything but a regular file before
reading or writing it.

A named pipe (FIFO) given where a save or a journal belongs would make a
plain ``open`` wait forever for the other end, and a device such as
``/dev/zero`` reads without end. :func:`open_regular` opens without waiting
(``O_NONBLOCK``), looks at what it opened, and refuses what is not a regular
file with :class:`NotRegularFileError`, an :class:`OSError` whose
``strerror`` says what the path is.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Final

__all__ = ["NotRegularFileError", "open_regular"]

_NONBLOCK: Final = getattr(os, "O_NONBLOCK", 0)


class NotRegularFileError(OSError):
    """The path names a named pipe, a device, a directory or a socket."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def _refusal(path: str | Path, mode: int) -> NotRegularFileError:
    return NotRegularFileError(
        errno.EINVAL, f"it is {_kind(mode)}, not a regular file", os.fspath(path)
    )


def open_regular(path: str | Path, flags: int, mode: int = 0o644) -> int:
    """A descriptor of the regular file at ``path`` opened with ``flags``
    (``os.O_RDONLY``, ``os.O_RDWR | os.O_CREAT``…), in blocking mode. Anything
    else at ``path`` raises :class:`NotRegularFileError` before a byte is read
    or written; other failures raise the :class:`OSError` of ``os.open``."""
    try:
        descriptor = os.open(path, flags | _NONBLOCK, mode)
    except OSError as error:
        # Opening a FIFO for writing without waiting fails when nobody reads it.
        if error.errno == errno.ENXIO:
            try:
                found = os.stat(path).st_mode
            except OSError:
                raise error from None
            if not stat.S_ISREG(found):
                raise _refusal(path, found) from None
        raise
    try:
        found = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(found):
            raise _refusal(path, found)
        if _NONBLOCK:
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor
