"""The :class:`Variant` base class every variant plugin provides.

A variant is mostly data: an id, a version, a title, the options it supports
with their defaults. Its behaviour is a few hook methods the engine calls;
the engine owns every state change. Override only what the variant changes:

* :meth:`Variant.legal_bids` — the bids open to a seat (the only hook with no
  default: every variant says how it bids);
* :meth:`Variant.score_hand` — points and bags for a finished hand;
* :meth:`Variant.game_outcome` — whether the game is over after a hand;
* :meth:`Variant.check_rules` — rejecting option combinations it cannot play.

Trick play (following suit, spades as trump, breaking spades, the first lead)
is the engine's, configured by the ``break_rule`` and ``first_lead`` options.

A variant can be reconfigured without code: :meth:`Variant.derive` returns a
copy with another id, title or defaults.

>>> from spades_core import load_variant
>>> short = load_variant("mirror").derive(id="mirror-250", target_score=250)
>>> short.id, short.defaults["target_score"]
('mirror-250', 250)
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from spades_core.cards import CardSet
from spades_core.errors import RulesError, brief
from spades_core.options import STANDARD_OPTIONS, OptionSpec, Rules
from spades_core.scoring import game_outcome, score_hand
from spades_core.seats import Seat, SeatMap

__all__ = ["Variant"]

_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


class Variant:
    """A set of Spades rules the engine can play.

    ``options`` lists the options the variant supports: names of standard
    options (see :data:`spades_core.options.STANDARD_OPTIONS`) or
    :class:`OptionSpec` objects of its own. ``defaults`` gives a default for
    every one of them. Instances are immutable.
    """

    id: str
    """Short lowercase identifier, also the entry-point name (``"classic"``)."""
    version: int
    """Rules version; a saved record names it, so rule changes can be detected."""
    title: str
    """Name for people (``"Classic Spades"``)."""
    summary: str
    """A paragraph describing the rules."""
    option_specs: Mapping[str, OptionSpec]
    """The options this variant accepts, by name."""
    defaults: Mapping[str, Any]
    """The default value of every supported option."""

    def __init__(
        self,
        *,
        id: str,
        title: str,
        version: int = 1,
        summary: str = "",
        options: Iterable[str | OptionSpec],
        defaults: Mapping[str, object],
    ) -> None:
        if not isinstance(id, str) or not _ID_PATTERN.match(id):
            raise RulesError(
                f"variant id {brief(id)} must be lowercase letters, digits, '-' or '_', "
                "starting with a letter, at most 40 characters"
            )
        if type(version) is not int or version < 1:
            raise RulesError(f"variant {brief(id)}: version must be a whole number of at least 1")
        if not isinstance(title, str) or not title.strip():
            raise RulesError(f"variant {brief(id)}: title must be a non-empty string")
        if not isinstance(summary, str):
            raise RulesError(f"variant {brief(id)}: summary must be a string")
        if type(self).legal_bids is Variant.legal_bids:
            raise RulesError(
                f"variant {brief(id)}: {type(self).__name__} must override legal_bids "
                "(every variant says how it bids)"
            )
        specs: dict[str, OptionSpec] = {}
        for option in options:
            spec = STANDARD_OPTIONS.get(option) if isinstance(option, str) else option
            if not isinstance(spec, OptionSpec):
                raise RulesError(f"variant {brief(id)} lists an unknown option {brief(option)}")
            if spec.name in specs:
                raise RulesError(f"variant {id!r} lists the option {spec.name!r} twice")
            specs[spec.name] = spec
        missing = sorted(set(specs) - set(defaults))
        if missing:
            raise RulesError(f"variant {id!r} gives no default for {', '.join(missing)}")
        unknown = sorted(set(defaults) - set(specs))
        if unknown:
            raise RulesError(f"variant {id!r} has defaults for unlisted options {unknown}")
        checked = {name: specs[name].check(value) for name, value in defaults.items()}
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "summary", summary)
        object.__setattr__(self, "option_specs", MappingProxyType(specs))
        object.__setattr__(self, "defaults", MappingProxyType(checked))
        object.__setattr__(self, "_default_rules", self._resolve({}))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"variants are immutable; use derive() to change {name!r}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r} v{self.version}>"

    def __copy__(self) -> Variant:
        # A shallow copy is what derive() starts from: the same attributes in a
        # new object (pickling, below, would give back the installed variant).
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled games travel to worker processes; there a variant must be the
        # installed object (games compare their variants by identity), so an
        # installed variant is pickled as its id and a derived one as its
        # derivation. Option specs hold functions and cannot be pickled.
        derivation = self.__dict__.get("_derivation")
        if derivation is not None:
            return (_derive, derivation)
        from spades_core.errors import SpadesError
        from spades_core.registry import load_variant

        try:
            installed = load_variant(self.id) is self
        except SpadesError:
            installed = False
        if not installed:
            raise TypeError(
                f"variant {self.id!r} cannot be pickled: it is not the installed variant "
                f"of that id; register it under the 'spades_core.variants' entry-point "
                f"group, or derive it from an installed variant with Variant.derive"
            )
        return (load_variant, (self.id,))

    # -- options -------------------------------------------------------------

    def rules(self, /, **overrides: object) -> Rules:
        """The :class:`Rules` for these option overrides, checked.

        Raises :class:`RulesError` naming the option for an unknown option, an
        option this variant does not support, or a value it does not accept.
        """
        if not overrides:
            default: Rules = self._default_rules  # type: ignore[attr-defined]
            return default
        return self._resolve(overrides)

    def _resolve(self, overrides: Mapping[str, object]) -> Rules:
        standard: dict[str, Any] = {}
        extra: list[tuple[str, object]] = []
        given: list[tuple[str, object]] = []
        for name in overrides:
            if name not in self.option_specs:
                raise self._unknown_option(name)
        for name, spec in self.option_specs.items():
            value = spec.check(overrides[name]) if name in overrides else self.defaults[name]
            if name in overrides:
                given.append((name, value))
            if name in STANDARD_OPTIONS and STANDARD_OPTIONS[name] is spec:
                standard[name] = value
            else:
                extra.append((name, value))
        rules = Rules(**standard, extra=tuple(extra), overrides=tuple(given))
        self.check_rules(rules)
        return rules

    def _unknown_option(self, name: str) -> RulesError:
        supported = ", ".join(sorted(self.option_specs))
        if name in STANDARD_OPTIONS:
            return RulesError(
                f"option {brief(name)} does not apply to the {self.id!r} variant; "
                f"its options are: {supported}"
            )
        return RulesError(
            f"unknown option {brief(name)} for {self.id!r}; its options are: {supported}"
        )

    def derive(
        self,
        /,
        *,
        id: str | None = None,
        title: str | None = None,
        version: int | None = None,
        summary: str | None = None,
        **defaults: object,
    ) -> Variant:
        """A copy of this variant with another id, title, version, summary or
        option defaults. Defaults are checked like game options.

        The copy keeps this variant's class, so it bids and scores the same way.
        """
        clone = copy.copy(self)
        for name in defaults:
            if name not in self.option_specs:
                raise self._unknown_option(name)
        Variant.__init__(
            clone,
            id=self.id if id is None else id,
            title=self.title if title is None else title,
            version=self.version if version is None else version,
            summary=self.summary if summary is None else summary,
            options=self.option_specs.values(),
            defaults={
                **self.defaults,
                **{k: self.option_specs[k].check(v) for k, v in defaults.items()},
            },
        )
        changes = {
            name: value
            for name, value in (
                ("id", id),
                ("title", title),
                ("version", version),
                ("summary", summary),
            )
            if value is not None
        }
        object.__setattr__(clone, "_derivation", (self, {**changes, **defaults}))
        return clone

    def option_table(self) -> list[tuple[str, str, object, str]]:
        """One row per supported option: (name, accepted values, default, summary)."""
        return [
            (name, spec.accepts, self.defaults[name], spec.summary)
            for name, spec in self.option_specs.items()
        ]

    # -- hooks ---------------------------------------------------------------

    def check_rules(self, rules: Rules) -> None:
        """Raise :class:`~spades_core.RulesError` if this combination of option
        values cannot be played. Called for the defaults when the variant is
        created and for every game's options; the default accepts everything
        the option specs accept."""

    def legal_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> tuple[int, ...]:
        """The bids ``seat`` may make holding ``hand``, ascending; 0 is Nil.

        ``bids`` holds the bids already made this hand. Must return at least
        one bid, each a whole number 0-13.
        """
        raise NotImplementedError(f"variant {self.id!r} does not define legal_bids")

    def revealed_spade_counts(self, rules: Rules, bids: Mapping[Seat, int]) -> dict[Seat, int]:
        """Dealt spade counts that the bids made so far reveal, by seat.

        Views publish these and determinization respects them. The default
        reveals nothing; Mirror reveals every count, Whiz every non-Nil one.
        """
        return {}

    def score_hand(
        self,
        rules: Rules,
        bids: SeatMap[int],
        tricks: SeatMap[int],
        bags_before: tuple[int, int],
    ) -> tuple[tuple[int, int], tuple[int, int]]:
        """((points NS, points EW), (bags NS, bags EW)) for a finished hand.

        The default applies RULES.md section 3 under ``rules``.
        """
        return score_hand(rules, bids.values_, tricks.values_, bags_before)  # type: ignore[arg-type]

    def game_outcome(self, rules: Rules, scores: tuple[int, int]) -> int | None:
        """The winning team's number (0 = NS, 1 = EW) after a hand, or ``None``
        to play on. The default applies RULES.md section 4."""
        return game_outcome(rules, scores)


def _derive(base: Variant, changes: dict[str, Any]) -> Variant:
    """``base.derive(**changes)``: how a pickled derived variant is rebuilt."""
    return base.derive(**changes)
