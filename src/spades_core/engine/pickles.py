"""Games pickled by earlier releases, brought up to today's fields.

:meth:`Game.__setstate__ <spades_core.Game>` asks :func:`game_fields` for the
fields of the game a pickled state describes, then builds the game from them
with its constructor. The states it reads, oldest first:

* release 0.1 kept its results in a tuple (now a
  :class:`~spades_core.results.HandResults`), and rules without the options
  added since (or with one that has moved to a variant of its own);
* a game pickled before ``phase`` was a field of its own holds it as
  ``_phase``, and its setup, dealer, scores, bags, results and winner in
  fields of their own (today one ``Standing``);
* one pickled before the card ids of its completed tricks were kept
  (``_played``) holds their ``Trick`` records as ``_tricks``;
* one pickled before variants could add phases to a hand has no
  ``phases`` in its setup, no ``steps`` in its standing and none in its
  results (it had none);
* caches pickled with a game (``_legal``, ``_trick_records``) are dropped:
  a game works them out again when asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from spades_core.rules.results import HandResults, card_ids
from spades_core.values.options import STANDARD_OPTIONS, Rules

__all__ = ["game_fields"]

_STANDING_FIELDS: Final = ("_setup", "_dealer", "_scores", "_bags", "_results", "_winner")
_CACHES: Final = ("_legal", "_trick_records")


def game_fields(state: Mapping[str, Any], standing_type: Callable[..., Any]) -> dict[str, Any]:
    """The fields, by today's names, of the game whose pickled ``state`` this
    is; ``standing_type`` builds a game's ``Standing`` from its six parts."""
    fields = {name: value for name, value in state.items() if name not in _CACHES}
    if "_phase" in fields:
        fields["phase"] = fields.pop("_phase")
    if "_tricks" in fields:
        fields["_played"] = card_ids(fields.pop("_tricks"))
    if "_setup" in fields:
        fields["_standing"] = standing_type(*(fields.pop(name) for name in _STANDING_FIELDS))
    fields["_standing"] = _upgraded_standing(fields["_standing"])
    return fields


def _filled(value: Any) -> Any:
    # An attrs object unpickled from before a field with a default was added
    # lacks it: built again from the fields it has.
    fields = attrs.fields(type(value))
    if all(hasattr(value, field.name) for field in fields):
        return value
    given = [getattr(value, field.name) for field in fields if hasattr(value, field.name)]
    return type(value)(*given)


def _upgraded_standing(standing: Any) -> Any:
    # Release 0.1's history was a tuple, and its rules lack the options added
    # since or hold one that has moved to a variant of its own.
    standing = _filled(standing)
    if not hasattr(standing.setup, "phases"):
        standing = attrs.evolve(standing, setup=_filled(standing.setup))
    if any(not hasattr(result, "_steps") for result in standing.results):
        standing = attrs.evolve(
            standing, results=HandResults(_filled(result) for result in standing.results)
        )
    if not isinstance(standing.results, HandResults):
        standing = attrs.evolve(standing, results=HandResults(standing.results))
    setup = standing.setup
    own_options = {name for name in setup.variant.option_specs if name not in STANDARD_OPTIONS}
    if (
        not all(hasattr(setup.rules, field.name) for field in attrs.fields(Rules))
        or {name for name, _ in setup.rules.extra} != own_options
    ):
        rules = setup.variant.rules(**dict(setup.rules.overrides))
        standing = attrs.evolve(standing, setup=attrs.evolve(setup, rules=rules))
    return standing
