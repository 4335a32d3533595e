"""Play strength: the perfect-information reference player and the tables
that refuse it, the hard bot's inference from play, and IS-MCTS with the
normal policy's roll-outs."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import local_table
import spades_core as sc
from play_helpers import private_data_dir, run_play  # noqa: F401 (the `data` fixture)
from spades_core.bots import HardBot, SeesAllHands, ask, make, play_game
from spades_core.bots._search import GAME_VALUE, hand_value
from spades_core.bots.inference import PLAY_MISFIT, PlayReading
from spades_core.bots.perfect import PerfectInfoBot
from spades_core.bots.sim import BidReader, Sim
from spades_core.bots.table import table_from_view
from spades_core.cli.saves import AUTOSAVE_NAME, PlayerConfig, session_json
from spades_core.engine.encoding import action_id
from spades_core.engine.sampling import HiddenCards, determinize
from spades_core.engine.views import View
from spades_core.players import PlayerError, check_human_table, make_player

VARIANTS = ("classic", "mirror", "whiz")


def true_hands(game: sc.Game) -> tuple[int, int, int, int]:
    """The hands as held now, masks by seat number."""
    masks = [game.hand(seat).mask for seat in sc.Seat]
    return (masks[0], masks[1], masks[2], masks[3])


def played_to(game: sc.Game, players: list[Any], plays: int) -> sc.Game:
    """``game`` (dealt) bid and played by ``players`` until ``plays`` cards are down."""
    while game.phase is sc.Phase.BID or (
        game.phase is sc.Phase.PLAY and 4 * len(game.tricks) + len(game.current_trick) < plays
    ):
        seat = game.to_act
        assert seat is not None
        game = game.apply(ask(players[seat], game, seat), seat=seat)
    return game


# -- the perfect-information player ---------------------------------------------------


def test_perfect_info_is_a_player_by_name_and_plays_where_the_cards_are_known() -> None:
    player = make_player("perfect-info", seed=4)
    assert isinstance(player, PerfectInfoBot)
    assert isinstance(player, SeesAllHands)
    assert not isinstance(make("hard", seed=1), SeesAllHands)
    finished = play_game(sc.new_game("whiz", seed=6), [player, make("normal", seed=1)] * 2, hands=1)
    assert len(finished.hand_results) == 1
    result = sc.simulate("perfect-info", "normal", variant="mirror", hands=2, seed=3, workers=1)
    assert result.ns.player == "perfect-info"
    assert result.hands == 2


def test_perfect_info_refuses_to_choose_from_a_view_alone() -> None:
    game = sc.new_game("classic", seed=2).deal()
    view = game.view(game.to_act)  # type: ignore[arg-type]
    player = PerfectInfoBot(seed=1)
    with pytest.raises(PlayerError, match="cannot choose from a view alone"):
        player.choose(view)
    with pytest.raises(PlayerError, match="cannot choose from a view alone"):
        player.decide(view)


def test_perfect_info_checks_the_hands_it_is_given() -> None:
    game = played_to(sc.new_game("classic", seed=8).deal(), [make("normal", seed=1)] * 4, 6)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    hands = sc.SeatMap(tuple(game.hand(s) for s in sc.Seat))
    player = PerfectInfoBot(seed=1)
    assert player.choose_seeing(view, hands) in view.legal_actions()
    with pytest.raises(sc.ArgumentTypeError, match="SeatMap of CardSets"):
        player.choose_seeing(view, {s: game.hand(s) for s in sc.Seat})  # type: ignore[arg-type]
    # Another seat's hand given to the seat to act, and a card that was played.
    other = seat.partner
    swapped = sc.SeatMap(
        tuple(game.hand(other if s == seat else seat if s == other else s) for s in sc.Seat)
    )
    with pytest.raises(sc.InconsistentViewError):
        player.choose_seeing(view, swapped)
    stale = sc.SeatMap(tuple(game.dealt_hand(s) for s in sc.Seat))
    with pytest.raises(sc.InconsistentViewError, match="cards"):
        player.choose_seeing(view, stale)


def test_perfect_info_uses_the_hidden_cards_where_hard_cannot() -> None:
    # Games its seat cannot tell apart (determinize keeps the view) give the
    # hard bot one choice, but the perfect-information player's choices follow
    # the hidden cards: somewhere among these positions they differ.
    differs = 0
    for index in range(12):
        game = sc.new_game(VARIANTS[index % 3], seed=100 + index).deal()
        game = played_to(game, [make("normal", seed=s) for s in range(4)], 5 + 2 * index)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        other = determinize(view, random.Random(index))
        assert other.view(seat) == view
        assert make("hard", seed=index, steps=500).choose(view) == make(
            "hard", seed=index, steps=500
        ).choose(other.view(seat))
        choices = {
            PerfectInfoBot(seed=index).choose_seeing(
                view, sc.SeatMap(tuple(g.hand(s) for s in sc.Seat))
            )
            for g in (game, other)
        }
        differs += len(choices) > 1
    assert differs > 0


def test_ask_hands_the_cards_only_to_a_player_that_sees_all_hands() -> None:
    class Spy:
        """Records what it is given; ``sees_all_hands`` as a truthy non-True value."""

        sees_all_hands = "yes"

        def __init__(self) -> None:
            self.given: list[object] = []

        def choose(self, view: View) -> sc.Action:
            self.given.append(view)
            return view.legal_actions()[0]

        def choose_seeing(self, view: View, hands: object) -> sc.Action:
            raise AssertionError("only a player whose sees_all_hands is True is handed the cards")

    spy = Spy()
    game = sc.new_game("classic", seed=1)
    play_game(
        game, [spy, make("easy", seed=1), make("easy", seed=2), make("easy", seed=3)], hands=1
    )
    assert spy.given
    assert all(isinstance(view, View) for view in spy.given)


# -- tables where a person plays refuse it ---------------------------------------------


def test_check_human_table_refuses_players_for_measurement_only() -> None:
    for refused in ("perfect-info", "Perfect-Info", PerfectInfoBot(seed=1)):
        with pytest.raises(PlayerError, match=r"measurement only.*person plays"):
            check_human_table(refused)
    for allowed in (
        "hard",
        "easy",
        "ismcts",
        make("hard", seed=1),
        "no-such-player",
        "bad name!",
        7,
    ):
        check_human_table(allowed)


@pytest.mark.parametrize("option", ["--partner", "--opponents"])
def test_spades_play_refuses_to_seat_perfect_info(
    data: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
) -> None:
    status, _, err = run_play(monkeypatch, capsys, [option, "perfect-info"], [])
    assert status == 2
    assert "perfect-info is for measurement only" in err
    assert not (data / AUTOSAVE_NAME).exists()


def test_spades_play_refuses_a_save_that_seats_perfect_info(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data.mkdir()
    game = sc.new_game("classic", seed=5).deal()
    document = json.loads(session_json(game, PlayerConfig()))
    document["opponents"] = "perfect-info"
    (data / AUTOSAVE_NAME).write_text(json.dumps(document), encoding="utf-8")
    status, _, err = run_play(monkeypatch, capsys, ["--continue"], [])
    assert status == 1
    assert "cannot sit here: perfect-info is for measurement only" in err


@pytest.mark.integration("web")
def test_the_web_table_refuses_to_seat_perfect_info() -> None:
    from web_table_support import server

    body = {"variant": "classic", "players": {"N": "perfect-info", "S": "person"}}
    with pytest.raises(ValueError, match="perfect-info is for measurement only"):
        server.new_table_settings(body)
    body = {"variant": "classic", "players": {"N": "genius", "S": "person"}}
    with pytest.raises(ValueError, match="seat N takes 'random' or"):
        server.new_table_settings(body)


def test_the_browser_app_refuses_to_seat_perfect_info() -> None:
    # The browser app seats its players through the same protocol as the web
    # table: starting a game and resuming a saved one both refuse it.
    settings = {"variant": "classic", "players": {"N": "easy", "E": "perfect-info"}}
    refused = local_table.start_game(json.dumps(settings))
    assert isinstance(refused, str)
    assert "perfect-info is for measurement only" in refused
    record = sc.dumps(sc.new_game("classic", seed=3).deal())
    seating = {"players": {"N": "easy", "E": "easy", "W": "perfect-info"}}
    refused = local_table.resume_game(record, json.dumps(seating))
    assert isinstance(refused, str)
    assert "perfect-info is for measurement only" in refused
    seating = {"players": {"N": "easy", "E": "easy", "W": "easy"}}
    assert isinstance(local_table.resume_game(record, json.dumps(seating)), local_table.LocalTable)


# -- inference from play --------------------------------------------------------------


def test_the_inference_option_switches_the_reading_of_plays() -> None:
    assert HardBot(1).budget.inference is sc.bots.DEFAULT_BUDGET.inference
    for on in (True, "on", "ON"):
        assert HardBot(1, inference=on).budget.inference is True
    for off in (False, "off"):
        assert HardBot(1, inference=off).budget.inference is False
    assert make_player("hard:inference=off", seed=1).budget.inference is False  # type: ignore[attr-defined]
    with pytest.raises(sc.RulesError, match="inference must be on or off"):
        make("hard", inference="maybe")
    with pytest.raises(PlayerError, match="inference must be on or off"):
        make_player("hard:inference=2", seed=1)


def test_without_inference_hard_decides_as_it_did() -> None:
    # Reading the plays draws no extra random numbers when it is off: the
    # bot's choices are those of the search that reads the bids alone.
    game = played_to(sc.new_game("whiz", seed=21).deal(), [make("normal", seed=1)] * 4, 9)
    view = game.view(game.to_act)  # type: ignore[arg-type]
    choices = {make("hard", seed=s, steps=800, inference="off").choose(view) for s in range(3)}
    assert choices <= set(view.legal_actions())


mixed_levels = st.lists(st.sampled_from(["random", "easy", "normal"]), min_size=4, max_size=4)


@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    levels=mixed_levels,
    plays=st.integers(1, 51),
    viewer_offset=st.integers(0, 3),
)
def test_inference_never_rules_out_the_true_deal(
    variant: str, seed: int, levels: list[str], plays: int, viewer_offset: int
) -> None:
    game = sc.new_game(variant, seed=seed).deal()
    players = [make(level, seed=seed + s) for s, level in enumerate(levels)]
    game = played_to(game, players, plays)
    assert game.phase is sc.Phase.PLAY
    viewer = sc.Seat((int(game.to_act) + viewer_offset) % 4)  # type: ignore[arg-type]
    view = game.view(viewer)
    truth = true_hands(game)
    # The hard constraints hold for the real hands, so sampling can draw them ...
    hidden = HiddenCards(view)
    assert hidden.allows(truth)
    # ... and reading the plays only weighs them: a finite misfit, at most
    # one unit per play of another seat; none at all when every other seat
    # plays the normal policy the reading models.
    reading = PlayReading(view, table_from_view(view))
    misfit = reading.misfit(truth)
    others = sum(1 for s in sc.Seat if s != viewer)
    assert math.isfinite(misfit)
    assert 0 <= misfit <= PLAY_MISFIT * 13 * others
    if all(levels[s] == "normal" for s in range(4) if s != int(viewer)):
        assert misfit == 0


def test_reading_the_plays_puts_more_hidden_cards_where_they_are() -> None:
    # Over positions from games of normal players, the deals kept with the
    # plays read place more hidden cards with their real holders than the
    # deals kept from the bids alone, from the same random numbers.
    with_plays = without = 0
    for index in range(24):
        game = sc.new_game(VARIANTS[index % 3], seed=500 + index).deal()
        game = played_to(game, [make("normal", seed=s) for s in range(4)], 12 + index)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        truth = true_hands(game)
        hidden = HiddenCards(view)
        reading = PlayReading(view, table_from_view(view))
        reader = BidReader(6)
        for kept, plays in ((0, reading), (1, None)):
            rng = random.Random(index)
            for _ in range(20):
                held = reader.sample(hidden, rng, plays)
                right = sum((held[s] & truth[s]).bit_count() for s in range(4) if s != int(seat))
                if kept == 0:
                    with_plays += right
                else:
                    without += right
    assert with_plays > without * 1.02


def test_a_misfit_stopped_at_a_limit_keeps_the_same_deals() -> None:
    """The bid reader stops adding up a deal's misfit once it reaches the best
    so far: below the limit the misfit is the full one, at or above it the
    full one is too, so the reader keeps the same deals."""
    reader = BidReader(6)
    stopped = 0
    for index in range(12):
        game = sc.new_game(VARIANTS[index % 3], seed=700 + index).deal()
        game = played_to(game, [make("normal", seed=s) for s in range(4)], 4 + 3 * index)
        seat = game.to_act
        assert seat is not None
        hidden = HiddenCards(game.view(seat))
        rng = random.Random(index)
        for _ in range(30):
            dealt = hidden.dealt(hidden.sample(rng))
            full = reader.misfit(dealt, hidden)
            for limit in (0.0, 0.25, 0.5, 1.0, 2.0, full, math.inf):
                partial = reader.misfit(dealt, hidden, limit)
                if full < limit:
                    assert partial == full
                else:
                    assert partial >= limit
                    stopped += partial < full
    assert stopped > 0  # the limit did cut some sums short


def test_hidden_cards_allow_only_deals_that_fit_the_view() -> None:
    game = played_to(sc.new_game("mirror", seed=4).deal(), [make("normal", seed=1)] * 4, 10)
    seat = game.to_act
    assert seat is not None
    hidden = HiddenCards(game.view(seat))
    truth = true_hands(game)
    assert hidden.allows(truth)
    sample = hidden.sample(random.Random(2))
    assert hidden.allows(sample)
    others = [s for s in range(4) if s != int(seat)]
    a, b = others[0], others[1]
    moved = list(truth)
    card = truth[a] & -truth[a]
    moved[a] ^= card
    moved[b] |= card
    assert not hidden.allows(moved)  # a hand one card short, another one card over
    for bad in (truth[:3], (*truth[:3], "x"), 7, None):
        with pytest.raises(sc.ArgumentTypeError, match="four card masks"):
            hidden.allows(bad)  # type: ignore[arg-type]


def test_the_new_public_calls_refuse_bad_arguments() -> None:
    game = played_to(sc.new_game("classic", seed=4).deal(), [make("normal", seed=1)] * 4, 6)
    view = game.view(game.to_act)  # type: ignore[arg-type]
    reading = PlayReading(view, table_from_view(view))
    for bad in ((1, 2, 3), (1, 2, 3, -1), "abcd", (1, 2, 3, 1 << 52), None):
        with pytest.raises(sc.ArgumentTypeError, match="four 52-bit card masks"):
            reading.misfit(bad)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="bound"):
        reading.misfit(true_hands(game), bound="high")  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="view must be a View"):
        PlayReading(game, table_from_view(view))  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="table"):
        PlayReading(view, None)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="game must be a Game"):
        ask(make("easy", seed=1), view, sc.Seat.NORTH)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="no choose"):
        ask(object(), game, game.to_act)  # type: ignore[arg-type]
    from spades_core.envs.ismcts import NormalRollouts

    for call in (NormalRollouts().evaluate, NormalRollouts().prior):
        with pytest.raises(sc.ArgumentTypeError, match="SpadesCoreState"):
            call(game)  # type: ignore[arg-type]


# -- IS-MCTS with the normal policy's roll-outs -------------------------------------------


def test_ismcts_with_normal_rollouts_is_a_reproducible_player() -> None:
    player = make_player("ismcts:rollout=normal:simulations=6", seed=2**40 + 3)
    assert repr(player) == f"<ISMCTSPlayer rollout=normal simulations=6 uct_c=2.0 seed={3}>"
    game = played_to(sc.new_game("classic", seed=9).deal(), [make("normal", seed=1)] * 4, 7)
    view = game.view(game.to_act)  # type: ignore[arg-type]
    first = make_player("ismcts:rollout=normal:simulations=6", seed=1).choose(view)
    again = make_player("ismcts:rollout=normal:simulations=6", seed=1).choose(view)
    assert first == again
    assert first in view.legal_actions()
    result = sc.simulate(
        "ismcts:rollout=normal:simulations=4",
        "normal",
        variant="mirror",
        hands=1,
        seed=3,
        workers=1,
    )
    assert result.hands == 1
    with pytest.raises(PlayerError, match="rollout must be random or normal"):
        make_player("ismcts:rollout=greedy", seed=1)
    with pytest.raises(PlayerError, match="simulations"):
        make_player("ismcts:rollout=normal:simulations=0", seed=1)


@pytest.mark.parametrize(
    ("variant", "options"),
    [(variant, {}) for variant in VARIANTS] + [("classic", {"max_hands": 1})],
)
def test_normal_rollouts_value_a_hand_as_the_hard_bot_does(
    variant: str, options: dict[str, Any]
) -> None:
    import pyspiel

    from spades_core.envs import ismcts, openspiel

    openspiel.register()
    normal = [make("normal", seed=s) for s in range(4)]
    start = played_to(sc.new_game(variant, seed=31, **options).deal(), normal, 3)
    parameters = openspiel.game_parameters(start.variant, start.rules, hands=1)
    game = pyspiel.load_game(openspiel.GAME_NAME, parameters)
    evaluator = ismcts.NormalRollouts()
    # The roll-out plays the normal policy on the state's cards: the value
    # is the hard bot's value of that play-out ...
    seat = start.to_act
    assert seat is not None
    view = start.view(seat)
    sim = Sim(view, table_from_view(view), true_hands(start))
    sim.play_out()
    expected = hand_value(sim, 0) / ismcts.VALUE_SCALE
    values = evaluator.evaluate(game.state_from_game(start))
    assert list(values) == [expected, -expected, expected, -expected]
    if options:
        # The hand limit ends the game with this hand: the match is in the value.
        assert abs(values[0]) > GAME_VALUE / ismcts.VALUE_SCALE / 2
    # ... and the same hand played on by normal bots through OpenSpiel's
    # state to the end of the episode is valued the same without a play-out.
    state = game.state_from_game(start)
    while not state.is_terminal():
        acting = sc.Seat(state.current_player())
        state.apply_action(action_id(normal[acting].choose(state.game.view(acting))))
    assert list(evaluator.evaluate(state)) == list(values)
    state = game.state_from_game(start)
    prior = evaluator.prior(state)
    assert [action for action, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)


def test_deal_sampler_draws_deals_the_view_allows_and_games_replay_them() -> None:
    game = played_to(sc.new_game("whiz", seed=12).deal(), [make("normal", seed=1)] * 4, 9)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    hidden = HiddenCards(view)
    for budget in (sc.bots.DEFAULT_BUDGET, sc.bots.Budget(inference=True)):
        draw = sc.bots.deal_sampler(view, random.Random(1), budget)
        for index in range(5):
            held = draw()
            assert hidden.allows(held)
            sample = hidden.game(held, seed=index)
            assert sample.view(seat) == view
            assert true_hands(sample) == held
    with pytest.raises(sc.ArgumentTypeError, match="view must be a View"):
        sc.bots.deal_sampler(game, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="rng"):
        sc.bots.deal_sampler(view, 1)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="budget"):
        sc.bots.deal_sampler(view, random.Random(1), {"draws": 2})  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="seed"):
        hidden.game(true_hands(game), seed="x")  # type: ignore[arg-type]
    with pytest.raises(sc.InconsistentViewError):
        hidden.game((0, 0, 0, 0), seed=1)


def test_playout_value_is_zero_sum_and_values_a_finished_hand_as_it_ended() -> None:
    normal = [make("normal", seed=s) for s in range(4)]
    start = played_to(sc.new_game("mirror", seed=5).deal(), normal, 0)
    ns = sc.bots.playout_value(start, sc.Team.NS)
    assert ns == -sc.bots.playout_value(start, sc.Team.EW)
    # The normal policy is the play-out: the same hand played through the
    # engine by normal bots ends with the value the play-out gave it.
    finished = play_game(start, normal, hands=1)
    assert sc.bots.playout_value(finished, sc.Team.NS) == ns
    with pytest.raises(sc.RulesError, match="no hand"):
        sc.bots.playout_value(sc.new_game("classic", seed=1), sc.Team.NS)
    with pytest.raises(sc.ArgumentTypeError, match="team must be a Team"):
        sc.bots.playout_value(start, 0)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="game must be a Game"):
        sc.bots.playout_value(start.view(sc.Seat.NORTH), sc.Team.NS)  # type: ignore[arg-type]
