"""One error class per kind of mistake, in every public call (docs/design.md,
"The public API", Errors).

The table below gives, for each kind of argument, values that are the wrong
type or the wrong value and the class each must raise; every public callable
of the fuzzed surface (and the integration classes) that takes an argument
of one of those kinds has a row calling it with every bad value, and a
completeness check fails when a public callable with such an argument has no
row.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import pytest

import spades_core as sc
from fuzz_support import targets
from spades_core import bots
from spades_core.engine.sampling import HiddenCards
from spades_core.rules.hooks import score_breakdown
from spades_core.rules.scoring import ScoreKind, bag_cost
from spades_core.rules.variant import describe_bids

ATE = sc.ArgumentTypeError
RULES = sc.RulesError
NOTATION = sc.InvalidNotationError
ILLEGAL = sc.IllegalActionError

GAME: Final = sc.new_game("classic", seed=3, dealer="W").deal()
VIEW: Final = GAME.view(sc.Seat.NORTH)
PLAYING: Final = GAME.bid(3).bid(3).bid(3).bid(3)
PAIR: Final = ["easy", "random"]
FINISHED: Final = bots.play_game(
    GAME, [bots.make("random", seed=seat) for seat in range(4)], hands=1
)

# The bad values of each kind of argument, and the class each raises.
KINDS: Final[dict[str, tuple[tuple[object, type[sc.SpadesError]], ...]]] = {
    # A View is wanted.
    "view": ((None, ATE), (GAME, ATE), ("N", ATE), (VIEW.to_dict(), ATE)),
    # A Game is wanted.
    "game": ((None, ATE), (VIEW, ATE), ("classic", ATE), (sc.dumps(GAME), ATE)),
    # A seed that decides deals: a whole number from 0 to 2**64-1.
    "seed": (("7", ATE), (1.5, ATE), (True, ATE), (-1, RULES), (2**64, RULES)),
    # A bot's seed: any whole number (or None for a random one).
    "bot seed": (("7", ATE), (1.5, ATE), (True, ATE), (b"7", ATE)),
    # A seat, read from its notation.
    "seat": (
        (7, NOTATION),
        (True, NOTATION),
        ("X", NOTATION),
        (sc.Team.NS, NOTATION),
        (2.0, NOTATION),
    ),
    # A random generator.
    "rng": ((7, ATE), ("x", ATE), (None, ATE)),
    # A number of more hands (0 or more).
    "hands": ((-1, RULES), (1.5, ATE), (True, ATE), ("1", ATE)),
    # Anything read as an action.
    "action": (("ZZ", ILLEGAL), (None, ILLEGAL), (2.5, ILLEGAL), (sc.Seat.NORTH, ILLEGAL)),
    # A variant: its id or the Variant.
    "variant": ((3, ATE), (None, ATE), ("no-such-variant", sc.VariantNotFoundError)),
    # A Variant object (or None), for a record of a variant that is not installed.
    "variant object": ((3, ATE), ("classic", ATE)),
    # A bot level.
    "level": ((3, ATE), ("grandmaster", RULES)),
    # A chooser for a play-out.
    "choose": ((7, ATE), ("lowest", ATE)),
    # A Game or a View (what scoring reads from either).
    "game or view": ((None, ATE), ("classic", ATE), (sc.dumps(GAME), ATE)),
    # A finished hand of a game, counted from 0 (negative from the last).
    "hand index": (("0", ATE), (1.5, ATE), (True, ATE), (5, RULES)),
    # Bids as a sentence names them: an iterable of whole numbers 0-13.
    "bids": ((3, ATE), ("3", ATE), ([1.5], ATE), ([14], RULES), ([-1], RULES)),
    # A bag limit: a whole number of at least 1 (None: no limit).
    "bag limit": (("10", ATE), (1.5, ATE), (0, RULES)),
    # Points: a whole number.
    "points": (("100", ATE), (1.5, ATE), (None, ATE)),
    # A value of an enum, read from its notation.
    "enum value": (("no such member", NOTATION), (99, NOTATION)),
}

Call = Callable[[Any], object]


def _rollouts(seed: Any) -> object:
    from spades_core.envs.ismcts import ISMCTSPlayer

    return ISMCTSPlayer.random_rollouts(1, seed=seed)


def _choose(view: Any) -> object:
    from spades_core.envs.ismcts import ISMCTSPlayer

    return ISMCTSPlayer.random_rollouts(1).choose(view)


def _features(name: str) -> Call:
    def call(view: Any) -> object:
        from spades_core.envs import features

        return getattr(features, name)(view)

    return call


def _tables(seed: Any) -> object:
    from spades_core import batch

    return batch.Tables("classic", 2, seed=seed)


def _play_hands_variant(variant: Any) -> object:
    from spades_core import batch

    return batch.play_hands(variant, range(2))


def _players() -> list[bots.Bot]:
    return [bots.make("random", seed=seat) for seat in range(4)]


# (public callable, its argument, kind, the call with a bad value in place)
ROWS: Final[tuple[tuple[str, str, str, Call], ...]] = (
    ("new_game", "seed", "seed", lambda bad: sc.new_game("classic", seed=bad)),
    ("new_game", "dealer", "seat", lambda bad: sc.new_game("classic", seed=1, dealer=bad)),
    ("new_game", "variant", "variant", lambda bad: sc.new_game(bad)),
    ("Game.hand", "seat", "seat", lambda bad: GAME.hand(bad)),
    ("Game.dealt_hand", "seat", "seat", lambda bad: GAME.dealt_hand(bad)),
    ("Game.view", "seat", "seat", lambda bad: GAME.view(bad)),
    ("Game.apply", "seat", "seat", lambda bad: GAME.apply(3, seat=bad)),
    ("Game.bid", "seat", "seat", lambda bad: GAME.bid(3, seat=bad)),
    ("Game.play", "seat", "seat", lambda bad: PLAYING.play(PLAYING.legal_cards()[0], seat=bad)),
    ("Game.why_illegal", "seat", "seat", lambda bad: GAME.why_illegal(3, seat=bad)),
    ("Game.apply", "action", "action", lambda bad: GAME.apply(bad)),
    ("Game.bid", "value", "action", lambda bad: GAME.bid(bad)),
    ("Game.play", "card", "action", lambda bad: PLAYING.play(bad)),
    ("Game.why_illegal", "action", "action", lambda bad: _raise_returned(GAME.why_illegal(bad))),
    ("action_id", "action", "action", lambda bad: sc.encoding.action_id(bad)),
    ("Bid", "value", "action", lambda bad: sc.Bid(bad)),
    ("Bid.of", "value", "action", lambda bad: sc.Bid.of(bad)),
    ("Play", "card", "action", lambda bad: sc.Play(bad)),
    ("Play.of", "card", "action", lambda bad: sc.Play.of(bad)),
    ("View.hand", "seat", "seat", lambda bad: VIEW.hand(bad)),
    ("View.dealt_hand", "seat", "seat", lambda bad: VIEW.dealt_hand(bad)),
    ("View.spades_left", "seat", "seat", lambda bad: VIEW.spades_left(bad)),
    ("determinize", "view", "view", lambda bad: sc.determinize(bad, random.Random(1))),
    ("determinize", "rng", "rng", lambda bad: sc.determinize(VIEW, bad)),
    ("HiddenCards", "view", "view", lambda bad: HiddenCards(bad)),
    ("HiddenCards.sample", "rng", "rng", lambda bad: HiddenCards(VIEW).sample(bad)),
    ("coach", "view", "view", lambda bad: sc.coach(bad)),
    ("Bot.decide", "view", "view", lambda bad: bots.NormalBot(1).decide(bad)),
    ("RandomBot.choose", "view", "view", lambda bad: bots.RandomBot(1).choose(bad)),
    ("RandomBot.decide", "view", "view", lambda bad: bots.RandomBot(1).decide(bad)),
    ("EasyBot.choose", "view", "view", lambda bad: bots.EasyBot(1).choose(bad)),
    ("EasyBot.decide", "view", "view", lambda bad: bots.EasyBot(1).decide(bad)),
    ("NormalBot.choose", "view", "view", lambda bad: bots.NormalBot(1).choose(bad)),
    ("NormalBot.decide", "view", "view", lambda bad: bots.NormalBot(1).decide(bad)),
    ("HardBot.choose", "view", "view", lambda bad: bots.HardBot(1).choose(bad)),
    ("HardBot.decide", "view", "view", lambda bad: bots.HardBot(1).decide(bad)),
    ("Bot", "seed", "bot seed", lambda bad: bots.Bot(bad)),
    ("Bot.choose", "view", "view", lambda bad: bots.EasyBot(1).choose(bad)),
    ("RandomBot", "seed", "bot seed", lambda bad: bots.RandomBot(bad)),
    ("EasyBot", "seed", "bot seed", lambda bad: bots.EasyBot(bad)),
    ("NormalBot", "seed", "bot seed", lambda bad: bots.NormalBot(bad)),
    ("HardBot", "seed", "bot seed", lambda bad: bots.HardBot(bad)),
    ("make", "seed", "bot seed", lambda bad: bots.make("easy", seed=bad)),
    ("make", "level", "level", lambda bad: bots.make(bad)),
    ("ask", "game", "game", lambda bad: bots.ask(bots.RandomBot(1), bad, sc.Seat.NORTH)),
    ("ask", "seat", "seat", lambda bad: bots.ask(bots.RandomBot(1), GAME, bad)),
    ("deal_sampler", "view", "view", lambda bad: bots.deal_sampler(bad, random.Random(1))),
    ("deal_sampler", "rng", "rng", lambda bad: bots.deal_sampler(VIEW, bad)),
    ("playout_value", "game", "game", lambda bad: bots.playout_value(bad, sc.Team.NS)),
    ("play_game", "game", "game", lambda bad: bots.play_game(bad, _players())),
    ("play_game", "hands", "hands", lambda bad: bots.play_game(GAME, _players(), hands=bad)),
    ("playout", "game", "game", lambda bad: sc.playout(bad, random.Random(1))),
    ("playout", "hands", "hands", lambda bad: sc.playout(GAME, random.Random(1), hands=bad)),
    ("playout", "choose", "choose", lambda bad: sc.playout(GAME, bad)),
    ("legal_mask", "game", "game", lambda bad: sc.encoding.legal_mask(bad)),
    ("legal_ids", "game", "game", lambda bad: sc.encoding.legal_ids(bad)),
    ("action_from_id", "game", "game", lambda bad: sc.encoding.action_from_id(bad, 52)),
    ("dumps", "game", "game", lambda bad: sc.dumps(bad)),
    ("to_record", "game", "game", lambda bad: sc.records.to_record(bad)),
    ("loads", "variant", "variant object", lambda bad: sc.loads(sc.dumps(GAME), variant=bad)),
    (
        "from_record",
        "variant",
        "variant object",
        lambda bad: sc.records.from_record({}, variant=bad),
    ),
    (
        "load_lines",
        "variant",
        "variant object",
        lambda bad: list(sc.records.load_lines([sc.dumps(GAME)], variant=bad)),
    ),
    ("simulate", "seed", "seed", lambda bad: sc.simulate("easy", "easy", hands=1, seed=bad)),
    ("simulate", "hands", "hands", lambda bad: sc.simulate("easy", "easy", hands=bad)),
    ("simulate", "variant", "variant", lambda bad: sc.simulate("easy", "easy", variant=bad)),
    ("tournament", "seed", "seed", lambda bad: sc.tournament(PAIR, seed=bad)),
    ("tournament", "hands", "hands", lambda bad: sc.tournament(PAIR, hands=bad)),
    (
        "tournament",
        "variant",
        "variant",
        lambda bad: sc.tournament(["easy", "random"], variant=bad),
    ),
    ("score_breakdown", "game", "game or view", lambda bad: score_breakdown(bad)),
    ("score_breakdown", "hand", "hand index", lambda bad: score_breakdown(FINISHED, bad)),
    ("bag_cost", "limit", "bag limit", lambda bad: bag_cost(bad, 100)),
    ("bag_cost", "penalty", "points", lambda bad: bag_cost(10, bad)),
    ("describe_bids", "bids", "bids", lambda bad: describe_bids(bad)),
    ("Seat", "value", "enum value", lambda bad: sc.Seat(bad)),
    ("Team", "value", "enum value", lambda bad: sc.Team(bad)),
    ("Suit", "value", "enum value", lambda bad: sc.Suit(bad)),
    ("Rank", "value", "enum value", lambda bad: sc.Rank(bad)),
    ("Phase", "value", "enum value", lambda bad: sc.Phase(bad)),
    ("IllegalReason", "value", "enum value", lambda bad: sc.IllegalReason(bad)),
    ("RecordReason", "value", "enum value", lambda bad: sc.RecordReason(bad)),
    ("Why", "value", "enum value", lambda bad: bots.Why(bad)),
    ("ScoreKind", "value", "enum value", lambda bad: ScoreKind(bad)),
    ("BagOverflow", "value", "enum value", lambda bad: sc.BagOverflow(bad)),
    ("BreakRule", "value", "enum value", lambda bad: sc.BreakRule(bad)),
    ("DoubleNil", "value", "enum value", lambda bad: sc.DoubleNil(bad)),
    ("FirstLead", "value", "enum value", lambda bad: sc.FirstLead(bad)),
    ("NilTricks", "value", "enum value", lambda bad: sc.NilTricks(bad)),
    ("Suit.parse", "value", "enum value", lambda bad: sc.Suit.parse(bad)),
    ("Rank.parse", "value", "enum value", lambda bad: sc.Rank.parse(bad)),
    # Integrations (extras): they follow the same table.
    ("observation", "view", "view", _features("observation")),
    ("information_state", "view", "view", _features("information_state")),
    ("ISMCTSPlayer.choose", "view", "view", _choose),
    ("ISMCTSPlayer.random_rollouts", "seed", "seed32", _rollouts),
    ("Tables", "seed", "seed", _tables),
    ("play_hands", "variant", "variant", _play_hands_variant),
)

# An OpenSpiel bot's seed is 0 to 2**32-1, OpenSpiel's own range.
KINDS["seed32"] = (*KINDS["seed"][:-1], (2**32, RULES))

# Arguments of the surface whose names look like a kind but are not one.
NOT_THOSE_KINDS: Final = {
    ("Game.deal", "hands"): "the hands of an explicit deal (IllegalActionError INVALID_DEAL)",
    ("Deal", "hands"): "the hands of an explicit deal (IllegalActionError INVALID_DEAL on apply)",
    ("View", "seat"): "the View constructor: views are built by Game.view",
    ("View", "dealer"): "the View constructor: views are built by Game.view",
    ("View", "bids"): "the View constructor: views are built by Game.view",
    ("View", "variant"): "the View constructor: views are built by Game.view",
    ("Tip", "action"): "the Tip constructor: tips are built by coach()",
    ("OptionSpec.check", "value"): "an option value: RulesError (tests/test_options.py)",
    ("OptionSpec.error", "value"): "builds the RulesError for an option value",
    ("play_game", "players"): "players: tests/test_bots.py",
    ("tournament", "players"): "players: tests/test_simulation.py",
    ("Turn", "seat"): "a phase's answer, checked by the engine (VariantLoadError)",
    ("Where", "value"): "an enum lookup (CheckedLookup), as Phase's",
    ("PhaseTable.received", "seat"): "read by a phase's hooks; a seat not a Seat matches no step",
    ("PhaseTable.steps_of", "seat"): "read by a phase's hooks; a seat not a Seat matches no step",
}


def _raise_returned(error: sc.IllegalActionError | None) -> None:
    # why_illegal answers with the error rather than raising it.
    if error is not None:
        raise error


def _cases() -> list[Any]:
    cases = []
    for name, argument, kind, call in ROWS:
        for bad, expected in KINDS[kind]:
            marks: tuple[pytest.MarkDecorator, ...] = ()
            if name in ("observation", "information_state", "Tables", "play_hands"):
                marks = (pytest.mark.integration("batch"),)
            elif name.startswith("ISMCTSPlayer"):
                marks = (pytest.mark.integration("openspiel"),)
            cases.append(
                pytest.param(call, bad, expected, id=f"{name}-{argument}-{bad!r:.20}", marks=marks)
            )
    return cases


@pytest.mark.parametrize(("call", "bad", "expected"), _cases())
def test_each_kind_of_bad_argument_raises_its_one_class(
    call: Call, bad: object, expected: type[sc.SpadesError]
) -> None:
    with pytest.raises(sc.SpadesError) as caught:
        call(bad)
    assert type(caught.value) is expected or (
        # A seat or value error may come from a subclass that keeps the class.
        isinstance(caught.value, expected)
        and type(caught.value).__module__ == "spades_core.values.errors"
    ), f"{type(caught.value).__name__}: {caught.value}"
    assert len(str(caught.value)) < 400


def test_every_argument_of_a_kind_in_the_public_surface_has_a_row() -> None:
    names = {kind.split()[-1] for kind in KINDS} | {"dealer", "card", "value", "players"}
    covered = {(name, argument) for name, argument, _, _ in ROWS}
    missing = [
        f"{target.name}({argument})"
        for target in targets()
        for argument in target.signature.parameters
        if argument in names
        and (target.name, argument) not in covered
        and (target.name, argument) not in NOT_THOSE_KINDS
    ]
    assert missing == []


def test_the_table_speaks_of_real_arguments() -> None:
    by_name = {target.name: target for target in targets()}
    for name, argument, _, _ in ROWS:
        if name in by_name:
            assert argument in by_name[name].signature.parameters, (name, argument)
