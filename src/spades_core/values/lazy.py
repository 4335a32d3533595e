""":class:`lazy`, a read-only attribute worked out on first read and kept.

It does what :func:`functools.cached_property` does for an instance with a
``__dict__`` — the value is stored in that dict under the attribute's name,
where later reads find it before the descriptor — without the lock Python 3.11
takes on every first read. The objects it serves are immutable, so two threads
racing on a first read work out the same value and either may be kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

__all__ = ["lazy"]

T = TypeVar("T")


class lazy(Generic[T]):
    """Decorate a method of one argument to make it an attribute computed once
    per instance, on first read (the instance needs a ``__dict__``)."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        # The class statement names it (__set_name__); a compiled method has no __name__.
        self.name = ""
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> lazy[T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...
    def __get__(self, instance: object, owner: type | None = None) -> T | lazy[T]:
        if instance is None:
            return self
        value = self.compute(instance)
        # The instance's own dict, as functools.cached_property writes it: a
        # frozen class refuses setattr, and this is a cache, not a field.
        instance.__dict__[self.name] = value
        return value
