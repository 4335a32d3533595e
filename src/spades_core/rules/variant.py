"""The :class:`Variant` base class every variant plugin provides.

A variant is mostly data: an id, a version, a title, and one mapping from
each option it supports to that option's default. Its behaviour is a few hook
methods the engine calls; the engine owns every state change and checks every
answer. Override only what the variant changes:

* :meth:`Variant.legal_bids` — the bids open to a seat (the only hook with no
  default: every variant says how it bids);
* :meth:`Variant.score_hand` — points and bags for a finished hand;
* :meth:`Variant.game_outcome` — whether a team has won after a hand;
* :meth:`Variant.check_rules` — rejecting option combinations it cannot play;
* :meth:`Variant.score_items` — a hand's score itemised for people;
* :meth:`Variant.array_forms` — its rules on arrays, for the batch engine;
* :meth:`Variant.explain_bids` — one sentence telling a player what limits
  their bid (the default states the legal bids);
* :meth:`Variant.phases` — phases it adds to each hand before or after the
  bidding (:mod:`spades_core.rules.phases`), and
  :meth:`Variant.score_phased_hand` and :meth:`Variant.score_phased_items`,
  scoring and itemising a hand that had them.

Trick play (following suit, spades as trump, breaking spades, the first lead)
is the engine's, configured by the ``break_rule`` and ``first_lead`` options.

A variant can be reconfigured without code: :meth:`Variant.derive` returns a
copy with another id, title or defaults, or without some options.

>>> from spades_core import load_variant
>>> short = load_variant("mirror").derive(id="mirror-250", target_score=250)
>>> short.id, short.defaults["target_score"]
('mirror-250', 250)

The engine calls the hooks through :func:`checked_legal_bids`,
:func:`checked_score_hand`, :func:`checked_game_end` and
:func:`checked_explain_bids`, which refuse a malformed answer with a
:class:`~spades_core.VariantLoadError` naming the variant and the hook.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from itertools import islice
from types import MappingProxyType
from typing import Any, Final, TypeAlias

from spades_core.rules.array_forms import ArrayForms
from spades_core.rules.phases import HandPhase, PhaseStep
from spades_core.rules.scoring import (
    ScoreItem,
    game_outcome,
    itemised_score,
    score_hand,
)
from spades_core.values import checks
from spades_core.values.cards import SUIT_MASKS, CardSet, Suit
from spades_core.values.errors import (
    ArgumentTypeError,
    RulesError,
    SpadesError,
    VariantLoadError,
    brief,
)
from spades_core.values.options import STANDARD_OPTIONS, UNIVERSAL_OPTIONS, OptionSpec, Rules
from spades_core.values.seats import Seat, SeatMap, Team, TeamMap

__all__ = [
    "HAND_SCORE_LIMIT",
    "NUMBER_OF_BIDS",
    "OptionDefaults",
    "Variant",
    "checked_legal_bids",
    "describe_bids",
    "hook_failure",
    "set_variant_loader",
]

_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
_OPTION_NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
# Keywords of derive() and new_game() that an option of the same name would shadow.
_RESERVED_OPTION_NAMES: Final = frozenset(
    {"id", "title", "version", "summary", "drop", "variant", "seed", "dealer"}
)


OptionDefaults: TypeAlias = Mapping[Any, object]
"""What :class:`Variant` takes as ``options``: each option (a standard option's
name or an :class:`OptionSpec`) mapped to its default. (Typed loosely because
a mapping's key type is invariant: ``dict[str, object]`` is not a
``Mapping[str | OptionSpec, object]``; the constructor checks every key.)"""


# The registry's loader of installed variants, which pickling asks whether a
# variant is the installed one of its id: the registry sits above this
# module, so it passes its loader in when it is imported.
_installed_variants: list[Callable[[str], Variant]] = []


def set_variant_loader(load: Callable[[str], Variant]) -> None:
    """Make ``load`` (the registry's :func:`~spades_core.load_variant`) the
    function that finds an installed variant by id when a variant is pickled."""
    _installed_variants[:] = [load]


class Variant:
    """A set of Spades rules the engine can play.

    ``options`` maps each option the variant supports to its default. An
    option is the name of a standard option (see
    :data:`spades_core.options.STANDARD_OPTIONS`) or an :class:`OptionSpec`
    of the variant's own::

        Variant(id="short", title="Short", options={"target_score": 250, TAX: 5})

    ``max_hands`` is an option of every variant (default ``None``) whether
    listed or not. Instances are immutable.
    """

    id: str
    """Short lowercase identifier, also the entry-point name (``"classic"``)."""
    version: int
    """Rules version; a saved record names it, so rule changes can be detected."""
    title: str
    """Name for people (``"Classic Spades"``)."""
    summary: str
    """A paragraph describing the rules."""
    option_specs: Mapping[str, OptionSpec[Any]]
    """The options this variant accepts, by name."""
    defaults: Mapping[str, Any]
    """The default value of every supported option, by name."""

    def __init__(
        self,
        *,
        id: str,
        title: str,
        options: OptionDefaults,
        version: int = 1,
        summary: str = "",
    ) -> None:
        if not isinstance(id, str) or not _ID_PATTERN.match(id):
            raise RulesError(
                f"variant id {brief(id)} must be lowercase letters, digits, '-' or '_', "
                "starting with a letter, at most 40 characters"
            )
        if type(version) is not int or not 1 <= version <= 1_000_000:
            raise RulesError(f"variant {id!r}: version must be a whole number from 1 to 1,000,000")
        if not isinstance(title, str) or not title.strip():
            raise RulesError(f"variant {brief(id)}: title must be a non-empty string")
        if not isinstance(summary, str):
            raise RulesError(f"variant {brief(id)}: summary must be a string")
        if type(self).legal_bids is Variant.legal_bids:
            raise RulesError(
                f"variant {brief(id)}: {type(self).__name__} must override legal_bids "
                "(every variant says how it bids)"
            )
        if not isinstance(options, Mapping):
            raise RulesError(
                f"variant {id!r}: options must map each option to its default, "
                f"like {{'target_score': 500}}; got {brief(options)}"
            )
        specs: dict[str, OptionSpec[Any]] = {}
        defaults: dict[str, object] = {}
        for option, default in options.items():
            spec = _option_spec(id, option)
            if spec.name in specs:
                raise RulesError(f"variant {id!r} lists the option {spec.name!r} twice")
            specs[spec.name] = spec
            defaults[spec.name] = spec.check(default)
        for name in UNIVERSAL_OPTIONS:
            if name not in specs:
                specs[name] = STANDARD_OPTIONS[name]
                defaults[name] = None
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "summary", summary)
        object.__setattr__(self, "option_specs", MappingProxyType(specs))
        object.__setattr__(self, "defaults", MappingProxyType(defaults))
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
        load_variant = _installed_variants[0] if _installed_variants else None
        try:
            installed = load_variant is not None and load_variant(self.id) is self
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
            if name in STANDARD_OPTIONS:
                standard[name] = value
            else:
                extra.append((name, value))
        rules = Rules(**standard, extra=tuple(extra), overrides=tuple(given))
        self.check_rules(rules)
        return rules

    def _unknown_option(self, name: str) -> RulesError:
        supported = ", ".join(sorted(self.option_specs))
        if isinstance(name, str) and name in STANDARD_OPTIONS:
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
        drop: Iterable[str] = (),
        **defaults: object,
    ) -> Variant:
        """A copy of this variant with another id, title, version, summary or
        option defaults, without the options named in ``drop``. Defaults are
        checked like game options.

        The copy keeps this variant's class, so it bids and scores the same
        way; a dropped standard option takes the neutral value :class:`Rules`
        shows for it.

        >>> from spades_core import load_variant
        >>> plain = load_variant("classic").derive(id="plain", drop=["double_nil"])
        >>> "double_nil" in plain.option_specs
        False
        """
        dropped = self._dropped(drop)
        for name in (*dropped, *defaults):
            if not isinstance(name, str) or name not in self.option_specs:
                raise self._unknown_option(name)
        both = sorted(set(dropped) & set(defaults))
        if both:
            raise RulesError(f"option {both[0]!r} cannot be both dropped and given a default")
        universal = sorted(set(dropped) & set(UNIVERSAL_OPTIONS))
        if universal:
            raise RulesError(
                f"option {universal[0]!r} belongs to every variant; it cannot be dropped"
            )
        clone = copy.copy(self)
        options: dict[str | OptionSpec[Any], object] = {
            _listed(spec): defaults[name] if name in defaults else self.defaults[name]
            for name, spec in self.option_specs.items()
            if name not in dropped
        }
        Variant.__init__(
            clone,
            id=self.id if id is None else id,
            title=self.title if title is None else title,
            version=self.version if version is None else version,
            summary=self.summary if summary is None else summary,
            options=options,
        )
        changes: dict[str, object] = {
            name: value
            for name, value in (
                ("id", id),
                ("title", title),
                ("version", version),
                ("summary", summary),
                ("drop", dropped or None),
            )
            if value is not None
        }
        object.__setattr__(clone, "_derivation", (self, {**changes, **defaults}))
        return clone

    def _dropped(self, drop: object) -> tuple[str, ...]:
        """The names ``drop`` lists, read one by one: anything but a name stops
        the reading, and so does a list longer than this variant's options,
        however long (or endless) it is."""
        wrong = RulesError(f"drop must be a list of option names; got {brief(drop)}")
        if isinstance(drop, str) or not isinstance(drop, Iterable):
            raise wrong
        try:
            names = iter(drop)
        except TypeError:
            raise wrong from None
        most = len(self.option_specs)
        dropped: list[str] = []
        for name in names:
            if not isinstance(name, str):
                raise wrong
            if len(dropped) == most:
                raise RulesError(
                    f"drop lists more names than variant {self.id!r} has options ({most})"
                )
            dropped.append(name)
        return tuple(dropped)

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
    ) -> Iterable[int]:
        """The bids ``seat`` may make holding ``hand``; 0 is Nil.

        ``bids`` holds the bids already made this hand. Return the bids in any
        collection (a list, tuple, set or ``range``), in any order: at least
        one, each a whole number 0-13, none twice.
        """
        raise NotImplementedError(f"variant {self.id!r} does not define legal_bids")

    def revealed_spade_counts(self, rules: Rules, bids: Mapping[Seat, int]) -> dict[Seat, int]:
        """Dealt spade counts that the bids made so far reveal, by seat.

        Views publish these and determinization respects them. The default
        reveals nothing; Mirror reveals every count, Whiz every non-Nil one.
        """
        return {}

    def explain_bids(
        self, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
    ) -> str | None:
        """One sentence saying what limits the bids ``seat`` may make holding
        ``hand`` after ``bids``, and what that leaves it; ``None`` when every
        bid from Nil to 13 is open.

        The arguments are those of :meth:`legal_bids`. The sentence is shown
        to the player as it is (when a bid is refused, beside the bid prompt,
        in the coach's tips), so it should name the facts of the position that
        limit the bid: ``"In Mirror Spades your bid is your spade count, and
        you hold 3 spades, so you must bid 3."``. The default states the legal
        bids themselves: ``"The Suicide Spades rules allow you to bid only
        Nil or 3-5 here."``.
        """
        legal = checked_legal_bids(self, rules, seat, hand, bids)
        if len(legal) == NUMBER_OF_BIDS:
            return None
        return f"The {self.title} rules allow you to bid only {describe_bids(legal)} here."

    def score_hand(
        self,
        rules: Rules,
        bids: SeatMap[int],
        tricks: SeatMap[int],
        bags_before: TeamMap[int],
    ) -> tuple[TeamMap[int], TeamMap[int]]:
        """``(points, bags)`` for a finished hand: each team's points this hand
        and its bags after it, as :class:`TeamMap` objects of whole numbers.

        The default scores by the standard rules (docs/rules.md, Scoring).
        """
        points, bags = score_hand(rules, bids.values_, tricks.values_, bags_before.values_)  # type: ignore[arg-type]
        return TeamMap(points), TeamMap(bags)

    def score_items(
        self,
        rules: Rules,
        bids: SeatMap[int],
        tricks: SeatMap[int],
        bags_before: TeamMap[int],
    ) -> Iterable[ScoreItem]:
        """The items a finished hand's score is made of, for people: what
        :func:`spades_core.scoring.score_breakdown` shows. Each team's items
        must add up to the points :meth:`score_hand` gives it, and their bags
        to its bags after the hand minus ``bags_before``.

        The default itemises the standard scoring. A variant that overrides
        :meth:`score_hand` but not this hook gets one
        :attr:`~spades_core.scoring.ScoreKind.VARIANT` item per team carrying
        its points; override this to itemise your own scoring (for instance
        the standard items plus one of your own).
        """
        return itemised_score(rules, bids.values_, tricks.values_, bags_before.values_)  # type: ignore[arg-type]

    def phases(self, rules: Rules) -> Iterable[HandPhase]:
        """The phases this variant adds to each hand under ``rules``, each a
        :class:`~spades_core.rules.phases.HandPhase` (in the order they are
        played among those in the same place). The default adds none: the
        hand is the engine's deal, bidding and play. Asked once per game."""
        return ()

    def score_phased_hand(
        self,
        rules: Rules,
        bids: SeatMap[int],
        tricks: SeatMap[int],
        bags_before: TeamMap[int],
        steps: tuple[PhaseStep, ...],
    ) -> tuple[TeamMap[int], TeamMap[int]]:
        """``(points, bags)`` for a finished hand of a variant with
        :meth:`phases`, which also sees the ``steps`` taken in them (a Blind
        Nil is a bid of 0 in ``bids``, and a :class:`~spades_core.BlindNil`
        step). The default is :meth:`score_hand`."""
        return self.score_hand(rules, bids, tricks, bags_before)

    def score_phased_items(
        self,
        rules: Rules,
        bids: SeatMap[int],
        tricks: SeatMap[int],
        bags_before: TeamMap[int],
        steps: tuple[PhaseStep, ...],
    ) -> Iterable[ScoreItem]:
        """The items of a finished hand of a variant with :meth:`phases`, which
        also sees the ``steps`` taken in them; they must add up to what
        :meth:`score_phased_hand` gives. The default is :meth:`score_items`. A
        variant that overrides :meth:`score_phased_hand` but not this hook
        gets one :attr:`~spades_core.scoring.ScoreKind.VARIANT` item per team
        carrying its points."""
        return self.score_items(rules, bids, tricks, bags_before)

    def game_outcome(self, rules: Rules, scores: TeamMap[int]) -> Team | None:
        """The team that has won with these running ``scores`` after a hand, or
        ``None`` to play on. The default applies the target score and the loss
        floor (docs/rules.md, Game end); the engine ends
        the game at ``max_hands`` itself."""
        return game_outcome(rules, scores.values_)  # type: ignore[arg-type]

    # -- array forms ----------------------------------------------------------

    def array_forms(self) -> ArrayForms | None:
        """This variant's rules on arrays, for the batch engine
        (:mod:`spades_core.batch`), or ``None`` (the default).

        Return an :class:`~spades_core.batch.ArrayForms` object (most simply
        a subclass of :class:`~spades_core.batch.BaseArrayForms`, built with
        ``self``) whose methods are the declared array twins of this
        variant's hooks. numpy is an optional extra, so import the module
        that defines them inside this method, not at the top of the
        variant's module. Without array forms the batch engine calls the
        hooks themselves row by row: slower, never refused.
        :func:`spades_core.testing.check_array_forms` checks that the twins
        agree with the hooks.
        """
        return None


def _option_spec(variant_id: str, option: object) -> OptionSpec[Any]:
    """The spec of an option a variant lists: a standard option by name, or its own spec."""
    if isinstance(option, str):
        spec = STANDARD_OPTIONS.get(option)
        if spec is None:
            raise RulesError(
                f"variant {variant_id!r} lists an unknown option {brief(option)}; list an "
                "option of its own as an OptionSpec (see spades_core.values.options.int_option)"
            )
        return spec
    if not isinstance(option, OptionSpec):
        raise RulesError(
            f"variant {variant_id!r}: an option is a standard option's name or an "
            f"OptionSpec; got {brief(option)}"
        )
    name = option.name
    if name in STANDARD_OPTIONS:
        if STANDARD_OPTIONS[name] is not option:
            raise RulesError(
                f"variant {variant_id!r}: {name!r} is a standard option; list it by name"
            )
        return option
    if (
        not isinstance(name, str)
        or not _OPTION_NAME_PATTERN.match(name)
        or name in _RESERVED_OPTION_NAMES
    ):
        raise RulesError(
            f"variant {variant_id!r}: option name {brief(name)} must be lowercase letters, "
            "digits and '_', starting with a letter, at most 40 characters, and none of "
            + ", ".join(sorted(_RESERVED_OPTION_NAMES))
        )
    return option


def _listed(spec: OptionSpec[Any]) -> str | OptionSpec[Any]:
    """How an option is listed in a variant's ``options``: a standard one by name."""
    return spec.name if STANDARD_OPTIONS.get(spec.name) is spec else spec


def _derive(base: Variant, changes: dict[str, Any]) -> Variant:
    """``base.derive(**changes)``: how a pickled derived variant is rebuilt."""
    return base.derive(**changes)


# -- calling the hooks, checked ---------------------------------------------------

HAND_SCORE_LIMIT: Final = 10**9
"""The largest number of points (either sign) or bags a team may get from
one hand's score; a hook answering more is refused."""

_SEATS: Final = tuple(Seat)
_MOST_BID_LISTS: Final = 4096
_ONLY_INT: Final = frozenset({int})
# Answers of legal_bids already checked, by value: the given tuple or range (a
# list or set as a tuple) -> its bids, ascending. Cleared when full, so it
# stays small whatever a variant returns.
_BID_LISTS: Final[dict[object, tuple[int, ...]]] = {}
_SPADES: Final = SUIT_MASKS[Suit.SPADES]


def hook_failure(variant: Variant, hook: str, error: BaseException) -> VariantLoadError:
    """The error for ``variant``'s ``hook`` failing with ``error``."""
    return VariantLoadError(f"variant {variant.id!r} failed in {hook}: {brief(error, 200)}")


def checked_legal_bids(
    variant: Variant, rules: Rules, seat: Seat, hand: CardSet, bids: Mapping[Seat, int]
) -> tuple[int, ...]:
    """The variant's :meth:`~Variant.legal_bids`, checked, as an ascending tuple.

    Raises :class:`~spades_core.VariantLoadError` naming the variant when the
    hook fails or answers anything but distinct whole numbers 0-13.
    """
    try:
        values: object = variant.legal_bids(rules, seat, hand, bids)
    except SpadesError:
        raise
    except (Exception, SystemExit) as error:
        raise hook_failure(variant, "legal_bids", error) from error
    kind = type(values)
    key: object = None
    if kind is tuple or kind is range:
        key = values
    elif (kind is list or kind is set or kind is frozenset) and len(values) <= 14:  # type: ignore[arg-type]
        key = tuple(values)  # type: ignore[arg-type]
    if key is not None:
        try:
            found = _BID_LISTS.get(key)
        except Exception:  # an element that cannot be hashed or compared
            found = None
        # Equal by value is not enough: (True,) == (1,) and (1.0,) == (1,),
        # and those answers are refused.
        if found is not None and (
            found is key or kind is range or _ONLY_INT.issuperset(map(type, key))  # type: ignore[call-overload]
        ):
            return found
    return _check_bid_list(variant, values, key)


def _check_bid_list(variant: Variant, values: object, key: object) -> tuple[int, ...]:
    bids: list[int] = []
    if isinstance(values, Iterable) and not isinstance(values, str | bytes | Mapping):
        try:  # at most 15: enough to see one too many
            bids = list(islice(values, 15))
        except (Exception, SystemExit) as error:
            raise hook_failure(variant, "legal_bids", error) from error
    if (
        not bids
        or not all(type(bid) is int and 0 <= bid <= 13 for bid in bids)
        or len(set(bids)) != len(bids)
    ):
        raise VariantLoadError(
            f"variant {variant.id!r}: legal_bids must return whole numbers 0-13, at least "
            f"one and none twice (a list, tuple, set or range); it returned {brief(values)}"
        )
    checked = tuple(sorted(bids))
    if type(values) is tuple and checked == values:
        # Keep the hook's own tuple: when it hands out the same object again,
        # the cache recognises it without looking at its elements.
        checked = values
    if key is not None:
        if len(_BID_LISTS) >= _MOST_BID_LISTS:
            _BID_LISTS.clear()
        _BID_LISTS[key] = checked
    return checked


# -- explaining bid limits, checked ---------------------------------------------

NUMBER_OF_BIDS: Final = 14
"""How many bids there are, Nil to 13: a seat with all of them open has no limit to explain."""


def describe_bids(bids: Iterable[int]) -> str:
    """Bids written for a sentence: Nil by name, runs of three or more as a
    range, the last two joined by "or".

    >>> describe_bids(range(14)), describe_bids([0, 1, 2]), describe_bids([4])
    ('Nil or 1-13', 'Nil, 1 or 2', '4')
    >>> describe_bids([9, 0, 3, 4, 5])
    'Nil, 3-5 or 9'
    """
    if isinstance(bids, (str, bytes)) or not isinstance(bids, Iterable):
        raise ArgumentTypeError(
            f"describe_bids: bids must be an iterable of bids (0-13); got {checks.described(bids)}"
        )
    values = sorted({checks.bid_value(bid, "describe_bids", "each bid") for bid in bids})
    words = ["Nil"] if values and values[0] == 0 else []
    runs: list[list[int]] = []
    for value in values:
        if not value:
            continue
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    for run in runs:
        if len(run) >= 3:
            words.append(f"{run[0]}-{run[-1]}")
        else:
            words.extend(str(value) for value in run)
    if len(words) <= 1:
        return words[0] if words else "no bid"
    return ", ".join(words[:-1]) + " or " + words[-1]
