"""Every variant as an OpenSpiel game: registration and parameters, OpenSpiel's
own consistency checks, hidden information, serialization, agreement with
OpenSpiel's ``spades``, and IS-MCTS against the library's bots."""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import spades_core as sc
from envs_support import VARIANTS, example_plugin_installed
from spades_core.engine import encoding
from spades_core.engine.game import Phase
from spades_core.envs import features, openspiel
from spades_core.envs.ismcts import ISMCTSPlayer
from spades_core.players import PlayerError, make_player

pytestmark = pytest.mark.integration("openspiel")

NON_DEFAULT: dict[str, dict[str, object]] = {
    "classic": {"target_score": 300, "nil_value": 50, "bag_limit": 0, "hands": 2},
    "mirror": {"break_rule": "offsuit_spade", "target_score": 100, "hands": 0, "returns": "win"},
    "whiz": {"whiz_nil_needs_no_ace": True, "nil_tricks": "bags_with_points", "loss_floor": -100},
    "suicide": {"max_team_bid": 9, "first_lead": "two_of_clubs", "double_nil": ""},
}
"""Options other than the defaults, with other episode lengths and returns."""


@pytest.fixture(params=VARIANTS)
def variant_id(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each built-in variant and the example plugin's, registered with OpenSpiel."""
    if request.param == "suicide":
        with example_plugin_installed(tmp_path / "site"):
            openspiel.register()
            yield request.param
        openspiel.register()
    else:
        openspiel.register()
        yield request.param


def load(**parameters: object) -> Any:
    openspiel.register()
    return pyspiel.load_game(openspiel.GAME_NAME, parameters)


def deal(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))


def play_randomly(state: Any, rng: random.Random) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))


# -- OpenSpiel's own checks -----------------------------------------------------------


def test_random_sim_test_with_default_options(variant_id: str) -> None:
    game = pyspiel.load_game(openspiel.GAME_NAME, {"variant": variant_id})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_with_other_options(variant_id: str) -> None:
    parameters = {"variant": variant_id, **NON_DEFAULT[variant_id]}
    game = pyspiel.load_game(openspiel.GAME_NAME, parameters)
    for name, value in NON_DEFAULT[variant_id].items():
        if name not in ("hands", "returns") and value != "":
            assert game.get_parameters()[name] == value
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# -- parameters --------------------------------------------------------------------------


def test_the_string_form_and_the_dict_form_give_the_same_game() -> None:
    by_dict = load(variant="mirror", target_score=300)
    by_text = pyspiel.load_game("spades_core(variant=mirror,target_score=300)")
    assert str(by_text) == str(by_dict)
    assert by_text.rules.target_score == 300
    assert by_text.variant.id == "mirror"
    # The game's parameters name the resolved rules, so its string reloads it.
    assert str(pyspiel.load_game(str(by_dict))) == str(by_dict)


def test_unset_options_take_each_variants_own_defaults() -> None:
    classic, mirror = load(variant="classic"), load(variant="mirror")
    assert classic.rules == sc.load_variant("classic").rules()
    assert mirror.rules == sc.load_variant("mirror").rules()
    assert classic.rules.loss_floor == -200
    assert mirror.rules.loss_floor is None
    # The variants disagree on loss_floor: its registered default is the placeholder.
    given = {"loss_floor": openspiel.INT_PLACEHOLDER}
    assert load(variant="classic", **given).rules.loss_floor == -200
    assert load(variant="mirror", **given).rules.loss_floor is None
    # They agree on target_score: its registered default is that value.
    assert load(variant="whiz").get_parameters()["target_score"] == 500
    assert mirror.rules.break_rule is sc.BreakRule.ANY_SPADE


def test_zero_means_none_for_options_that_allow_none() -> None:
    rules = load(variant="classic", loss_floor=0, bag_limit=0, max_team_bid=0).rules
    assert (rules.loss_floor, rules.bag_limit, rules.max_team_bid) == (None, None, None)


@pytest.mark.parametrize(
    ("parameters", "error", "words"),
    [
        ({"variant": "nosuch"}, sc.VariantNotFoundError, "nosuch"),
        ({"target_score": 0}, sc.RulesError, "target_score"),
        ({"variant": "mirror", "max_team_bid": 5}, sc.RulesError, "max_team_bid"),
        ({"nil_tricks": "sometimes"}, sc.RulesError, "nil_tricks"),
        ({"hands": -1}, sc.RulesError, "hands"),
        ({"hands": 201}, sc.RulesError, "hands"),
        ({"returns": "money"}, sc.RulesError, "returns"),
    ],
)
def test_bad_parameters_raise_the_engines_errors(
    parameters: dict[str, object], error: type[Exception], words: str
) -> None:
    openspiel.register()
    with pytest.raises(error, match=words):
        pyspiel.load_game(openspiel.GAME_NAME, parameters)


def test_a_parameter_of_the_wrong_type_is_refused_by_openspiel() -> None:
    openspiel.register()
    with pytest.raises(pyspiel.SpielError, match="target_score"):
        pyspiel.load_game(openspiel.GAME_NAME, {"target_score": "high"})


def test_bad_arguments_to_the_modules_functions_raise_spades_errors() -> None:
    with pytest.raises(sc.ArgumentTypeError, match="mapping"):
        openspiel.SpadesCoreGame("variant=classic")  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="Rules"):
        openspiel.game_parameters("classic", "house rules")  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="View"):
        features.observation("a view")  # type: ignore[arg-type]
    view = sc.new_game("classic", seed=1).deal().view(sc.Seat.EAST)
    with pytest.raises(sc.ArgumentTypeError, match="3645"):
        features.information_state(view, out=np.zeros(10, np.float32))


def test_game_parameters_load_the_same_rules() -> None:
    variant = sc.load_variant("classic")
    rules = variant.rules(target_score=250, loss_floor=None, nil_tricks="bags_only")
    parameters = openspiel.game_parameters(variant, rules, hands=3)
    assert parameters["loss_floor"] == 0
    assert parameters["nil_tricks"] == "bags_only"
    game = load(**parameters)
    # Equal option by option (a value equal to the variant's default is not kept as an override).
    assert {name: game.rules.get(name) for name in variant.option_specs} == {
        name: rules.get(name) for name in variant.option_specs
    }
    assert game.rules.loss_floor is None
    assert game.hands == 3


# -- the game type -------------------------------------------------------------------------


def test_the_game_type_is_honest() -> None:
    game = load(variant="classic")
    kind = game.get_type()
    assert kind.short_name == "spades_core"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_tensor
    assert kind.provides_observation_tensor
    assert game.num_players() == 4
    assert game.num_distinct_actions() == encoding.NUM_ACTIONS
    assert game.max_chance_outcomes() == 52
    assert game.max_game_length() == 56
    assert load(variant="classic", hands=3).max_game_length() == 3 * 56
    win = load(variant="classic", hands=0, returns="win")
    assert win.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (win.min_utility(), win.max_utility(), win.utility_sum()) == (-1.0, 1.0, 0.0)


def test_one_hands_returns_are_the_teams_points_for_the_hand() -> None:
    rng = random.Random(4)
    game = load(variant="whiz")
    for _ in range(5):
        state = game.new_initial_state()
        play_randomly(state, rng)
        result = state.game.hand_results[-1]
        assert len(state.game.hand_results) == 1
        points = result.points
        assert state.returns() == [float(points[seat.team]) for seat in sc.Seat]
        assert game.min_utility() <= min(state.returns())
        assert max(state.returns()) <= game.max_utility()


def test_whole_games_return_plus_one_to_the_winners() -> None:
    rng = random.Random(8)
    game = load(variant="mirror", hands=0, returns="win", target_score=100, loss_floor=-100)
    for _ in range(2):
        state = game.new_initial_state()
        play_randomly(state, rng)
        winner = state.game.winner
        assert state.game.is_over
        assert winner is not None
        assert state.returns() == [1.0 if seat.team is winner else -1.0 for seat in sc.Seat]


def test_several_hands_return_the_score_so_far() -> None:
    state = load(variant="classic", hands=3, target_score=10_000, loss_floor=0).new_initial_state()
    play_randomly(state, random.Random(2))
    assert len(state.game.hand_results) == 3
    scores = state.game.scores
    assert state.returns() == [float(scores[seat.team]) for seat in sc.Seat]


# -- chance, actions, observations -----------------------------------------------------------


def test_the_deal_is_explicit_chance_starting_left_of_the_dealer() -> None:
    state = load(variant="classic").new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [card for card, _ in outcomes] == list(range(52))
    assert all(probability == pytest.approx(1 / 52) for _, probability in outcomes)
    order = list(range(51, -1, -1))
    for card in order[:51]:
        state.apply_action(card)
    assert state.chance_outcomes() == [(0, 1.0)]
    state.apply_action(order[51])
    game = state.game
    assert game.dealer is openspiel.FIRST_DEALER
    for position, card in enumerate(order):
        assert sc.Card.from_id(card) in game.hand(sc.Seat(position % 4))
    assert state.current_player() == 0
    with pytest.raises(sc.IllegalActionError, match="chance outcome") as caught:
        load(variant="classic").new_initial_state().apply_action(52)
    assert caught.value.reason is sc.IllegalReason.NOT_AN_ACTION


def test_action_ids_are_the_encoding_ids() -> None:
    state = load(variant="mirror").new_initial_state()
    rng = random.Random(5)
    deal(state, rng)
    while not state.is_terminal():
        assert state.legal_actions() == list(encoding.legal_ids(state.game))
        action = rng.choice(state.legal_actions())
        expected = state.game.apply(encoding.ACTIONS[action])
        state.apply_action(action)
        assert state.game == expected
    assert state.action_to_string(0, 52) == "bid Nil"
    assert state.action_to_string(0, 55) == "bid 3"
    assert state.action_to_string(0, 51) == "AS"


def test_an_illegal_action_is_refused_by_the_engine() -> None:
    state = load(variant="classic").new_initial_state()
    deal(state, random.Random(1))
    with pytest.raises(sc.IllegalActionError):
        state.apply_action(0)  # a card during bidding


def _dealt_twice(swap: bool) -> tuple[Any, Any]:
    """Two states after the same bids, North's cards equal, East's and South's
    hands exchanged in the second."""
    game = load(variant="classic")
    deck = list(range(52))
    random.Random(12).shuffle(deck)
    hands = [deck[seat::4] for seat in range(4)]
    if swap:
        hands[1], hands[2] = hands[2], hands[1]
    state = game.new_initial_state()
    for index in range(13):
        for seat in range(4):
            state.apply_action(hands[seat][index])
    for bid in (3, 3, 3, 3):
        state.apply_action(encoding.BID_ID_BASE + bid)
    return state, hands


def test_observations_hold_nothing_hidden_from_the_seat() -> None:
    first, _ = _dealt_twice(swap=False)
    second, _ = _dealt_twice(swap=True)
    assert first.game != second.game
    north = 0
    assert first.information_state_string(north) == second.information_state_string(north)
    assert first.observation_string(north) == second.observation_string(north)
    assert np.array_equal(
        first.information_state_tensor(north), second.information_state_tensor(north)
    )
    assert np.array_equal(first.observation_tensor(north), second.observation_tensor(north))
    east = 1
    assert first.information_state_string(east) != second.information_state_string(east)
    assert not np.array_equal(first.observation_tensor(east), second.observation_tensor(east))


def test_the_tensors_are_the_feature_vectors_of_the_view() -> None:
    state, hands = _dealt_twice(swap=False)
    state.apply_action(state.legal_actions()[0])
    for player in range(4):
        view = state.game.view(sc.Seat(player))
        assert np.array_equal(state.observation_tensor(player), features.observation(view))
        assert np.array_equal(
            state.information_state_tensor(player), features.information_state(view)
        )
        assert len(state.observation_tensor(player)) == features.OBSERVATION_SIZE
        own = features.section(np.array(state.observation_tensor(player), np.float32), "hand")
        assert set(np.flatnonzero(own)) == set(hands[player]) - {
            card.id for _, card in state.game.current_trick
        }


def test_resampling_keeps_the_information_state() -> None:
    state, _ = _dealt_twice(swap=False)
    rng = random.Random(3)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hidden = set()
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        hidden.add(str(sample.game.hand(sc.Seat((player + 1) % 4))))
        play_randomly(sample, rng)
    assert len(hidden) > 1
    with pytest.raises(sc.RulesError, match="0-3"):
        state.resample_from_infostate(4, sampler)
    with pytest.raises(sc.RulesError, match="0-3"):
        state.view(-2)


# -- serialization --------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [20, 52 + 4 + 9])
def test_states_serialize_as_game_records(moves: int) -> None:
    game = load(variant="whiz", target_score=250)
    state = game.new_initial_state()
    rng = random.Random(moves)
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    payload = base64.b64decode(text.split("__dict__=", 1)[1].strip())
    assert b'"format":"spades-game"' in payload
    assert sc.dumps(state.game).encode() in payload
    game_again, state_again = pyspiel.deserialize_game_and_state(text)
    assert str(game_again) == str(game)
    assert state_again.game == state.game
    assert state_again.dealing == state.dealing
    assert state_again.history() == state.history()
    assert state_again.legal_actions() == state.legal_actions()


# -- against OpenSpiel's own spades ---------------------------------------------------------


def side_by_side(seed: int, hands: int) -> Iterator[tuple[Any, Any]]:
    """Random one-hand classic episodes, here and in OpenSpiel's ``spades``, on
    the same deals and actions (chosen among OpenSpiel's legal ones): both
    states before every decision and at every end."""
    ours = load(variant="classic")
    theirs = pyspiel.load_game("spades")
    rng = random.Random(seed)
    for _ in range(hands):
        mine, other = ours.new_initial_state(), theirs.new_initial_state()
        while not other.is_terminal():
            if other.is_chance_node():
                action = rng.choice([card for card, _ in other.chance_outcomes()])
            else:
                yield mine, other
                action = rng.choice(other.legal_actions())
            mine.apply_action(action)
            other.apply_action(action)
        yield mine, other


def test_one_classic_hand_scores_as_openspiels_spades_on_the_same_deals() -> None:
    ends = 0
    for mine, other in side_by_side(2024, 60):
        if other.is_terminal():
            assert mine.is_terminal()
            assert mine.returns() == other.returns()
            ends += 1
        else:
            assert mine.current_player() == other.current_player()
            # OpenSpiel's spades allows a subset of ours (it never breaks spades).
            assert set(other.legal_actions()) <= set(mine.legal_actions())
    assert ends == 60


def test_openspiels_spades_never_lets_a_spade_be_led() -> None:
    for mine, other in side_by_side(7, 40):
        extra = set(mine.legal_actions()) - set(other.legal_actions())
        if extra:
            game = mine.game
            assert game.spades_broken
            assert not game.current_trick
            assert all(sc.Card.from_id(card).suit is sc.Suit.SPADES for card in extra)
            return
    pytest.fail("no deal reached a lead where only spades-core allows a spade")


# -- IS-MCTS ---------------------------------------------------------------------------------


def _ismcts(game: Any, seed: int) -> ismcts.ISMCTSBot:
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    return ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=8, random_state=random_state)


@pytest.mark.parametrize("variant", ["classic", "whiz"])
def test_ismcts_and_the_library_bots_play_a_hand_through_the_wrapper(variant: str) -> None:
    game = load(variant=variant)
    searchers = {0: _ismcts(game, 1), 2: _ismcts(game, 2)}
    players: dict[int, sc.bots.Player] = {
        1: sc.bots.make("normal", seed=1),
        3: sc.bots.make("hard", seed=3),
    }
    state = game.new_initial_state()
    rng = random.Random(9)
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
            continue
        player = state.current_player()
        if player in searchers:
            action = int(searchers[player].step(state))
        else:
            chosen = players[player].choose(state.view(player))
            action = encoding.action_id(chosen)
        assert action in state.legal_actions()
        state.apply_action(action)
    result = state.game.hand_results[-1]
    assert state.returns() == [float(result.points[seat.team]) for seat in sc.Seat]


def ismcts_hand(seed: int) -> sc.Game:
    """A mirror hand: an IS-MCTS player as North-South against normal bots."""
    player = ISMCTSPlayer(lambda game: _ismcts(game, seed), seed=seed)
    seats: list[sc.bots.Player] = [
        player,
        sc.bots.make("normal", seed=1),
        player,
        sc.bots.make("normal", seed=2),
    ]
    game = sc.new_game("mirror", seed=21).deal()
    while game.phase is not Phase.DEAL:
        seat = game.to_act
        assert seat is not None
        game = game.apply(seats[seat].choose(game.view(seat)))
    return game


def test_an_ismcts_player_sits_at_a_spades_core_table() -> None:
    game = ismcts_hand(5)
    # Seeded bot and player: the same hand again.
    assert ismcts_hand(5) == game
    player = ISMCTSPlayer(lambda game: _ismcts(game, 5), seed=5)
    assert len(game.hand_results) == 1
    with pytest.raises(sc.ArgumentTypeError, match=r"ISMCTSPlayer\.choose: view must be a View"):
        player.choose(game)  # type: ignore[arg-type]
    dealt = game.deal()
    waiting = next(seat for seat in sc.Seat if seat != dealt.to_act)
    with pytest.raises(sc.IllegalActionError, match="not to act"):
        player.choose(dealt.view(waiting))


def test_the_ready_made_ismcts_player_is_reproducible() -> None:
    game = sc.new_game("whiz", seed=30).deal()
    view = game.view(game.to_act)  # type: ignore[arg-type]
    first = ISMCTSPlayer.random_rollouts(6, seed=2).choose(view)
    again = ISMCTSPlayer.random_rollouts(6, seed=2).choose(view)
    assert first == again
    assert first in view.legal_actions()
    with pytest.raises(sc.RulesError, match="simulations"):
        ISMCTSPlayer.random_rollouts(0)
    with pytest.raises(sc.RulesError, match="seed"):
        ISMCTSPlayer.random_rollouts(5, seed=-1)
    with pytest.raises(sc.RulesError, match="uct_c"):
        ISMCTSPlayer.random_rollouts(5, uct_c=-1.0)
    with pytest.raises(sc.ArgumentTypeError, match="make_bot"):
        ISMCTSPlayer("not a function")
    with pytest.raises(sc.ArgumentTypeError, match="simulations must be a whole number"):
        ISMCTSPlayer.random_rollouts(5.0)  # type: ignore[arg-type]
    with pytest.raises(sc.ArgumentTypeError, match="uct_c"):
        ISMCTSPlayer.random_rollouts(5, uct_c="1")  # type: ignore[arg-type]


def test_simulations_seat_ismcts_by_name() -> None:
    player = make_player("ismcts:simulations=4:uct_c=1.5", seed=2**63 + 7)
    assert repr(player) == f"<ISMCTSPlayer simulations=4 uct_c=1.5 seed={(2**63 + 7) % 2**32}>"
    result = sc.simulate(
        "ismcts:simulations=4", "easy", variant="whiz", hands=2, duplicate=True, seed=3, workers=1
    )
    again = sc.simulate(
        "ismcts:simulations=4", "easy", variant="whiz", hands=2, duplicate=True, seed=3, workers=1
    )
    assert result == again
    assert result.hands == 4
    for bad, words in (("ismcts:uct_c=0", "uct_c"), ("ismcts:simulations=0", "simulations")):
        with pytest.raises(PlayerError, match=words):
            make_player(bad, seed=1)
    with pytest.raises(PlayerError, match="refused"):
        make_player("ismcts:steps=5", seed=1)


def test_a_state_from_a_game_needs_the_same_rules() -> None:
    game = load(variant="classic")
    other = sc.new_game("classic", seed=1, target_score=200).deal()
    with pytest.raises(sc.RulesError, match="other options"):
        game.state_from_game(other)
    with pytest.raises(sc.ArgumentTypeError, match="state_from_game: game must be a Game"):
        game.state_from_game("a game")
    same = sc.new_game("classic", seed=1, target_score=500).deal()
    assert game.state_from_game(same).game == same


def test_every_hand_of_an_episode_is_dealt_from_its_dealers_left() -> None:
    # Mirror has no loss floor: random play does not end the game before the episode.
    state = load(variant="mirror", hands=3).new_initial_state()
    rng = random.Random(8)
    deals = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        dealer = state.game.dealer
        order = rng.sample(range(52), 52)
        for card in order:
            state.apply_action(card)
        deals += 1
        for position, card in enumerate(order):
            seat = sc.Seat((int(dealer) + 1 + position) % 4)
            assert sc.Card.from_id(card) in state.game.hand(seat)
    assert deals == state.game.hand_number == 3
