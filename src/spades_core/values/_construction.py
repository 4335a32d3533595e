"""Frozen slotted instances built by plain attribute stores.

An attrs-made ``__init__`` stores each field of a frozen class through
``object.__setattr__``, and the class refuses plain stores. The engine
builds one game (and, at a trick's end, one trick record) per action, so it
builds them as instances of a subclass that adds no slot and takes plain
stores, which CPython turns into direct slot writes, then makes each one an
instance of the frozen class by assigning its ``__class__``.
"""

from __future__ import annotations

__all__ = ["under_construction"]


def under_construction(cls: type) -> type:
    """A subclass of the frozen slotted class ``cls`` with the same layout
    (no slot of its own) whose instances take plain attribute stores; an
    instance becomes a ``cls`` when ``cls`` is assigned to its ``__class__``."""
    # Both hooks must be object's own for CPython to store into the slots directly.
    return type(
        f"_{cls.__name__}UnderConstruction",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": __name__,
        },
    )
