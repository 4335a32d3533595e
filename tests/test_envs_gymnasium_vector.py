"""spades_core/Spades-v0 as a vector environment on batch.Tables: Gymnasium's
vector API and autoreset, equal step by step to Gymnasium's own
SyncVectorEnv of single environments (random seeds, option sets, seats,
rewards, episodes, the example plugin), reproducible, and bad arguments."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space
from hypothesis import given, settings
from hypothesis import strategies as st

import spades_core as sc
from envs_support import example_plugin_installed
from spades_core.engine import encoding
from spades_core.engine.views import View
from spades_core.envs import features
from spades_core.envs import gymnasium as spades_gym
from spades_core.envs._learner import episode_seed, episode_seeds
from spades_core.testing.strategies import option_sets
from spades_variants.classic import ClassicVariant
from variant_doubles import like_classic

pytestmark = pytest.mark.integration("gymnasium")

Step = tuple[Any, Any, Any, Any, dict[str, Any]]


def lowest_id(view: View) -> int:
    """The single environment's twin of the batch policy ``"lowest"``."""
    return min(encoding.action_id(action) for action in view.legal_actions())


def random_legal(masks: npt.NDArray[np.int8], rng: random.Random) -> npt.NDArray[np.int64]:
    """A random legal id per row (0 where nothing is legal: the action is not read)."""
    return np.array(
        [rng.choice(np.flatnonzero(row).tolist()) if row.any() else 0 for row in masks],
        dtype=np.int64,
    )


def assert_same_run(
    reference: Any,
    vector: Any,
    seed: int | list[int],
    steps: int,
) -> int:
    """Step both with the same random legal actions and compare everything
    each step returns; the number of episodes that ended."""
    rng = random.Random(repr(seed))
    first = reference.reset(seed=seed)
    second = vector.reset(seed=seed)
    assert data_equivalence(first[0], second[0], exact=True)
    infos = first[1]
    assert np.array_equal(infos["action_mask"], second[1]["action_mask"])
    assert np.array_equal(infos["seed"], second[1]["seed"])
    ended = 0
    for step in range(steps):
        actions = random_legal(infos["action_mask"], rng)
        left: Step = reference.step(actions)
        right: Step = vector.step(actions)
        for name, a, b in zip(
            ("observation", "reward", "terminated", "truncated"), left, right, strict=False
        ):
            assert data_equivalence(a, b, exact=True), f"step {step}: {name} differs"
        assert np.array_equal(left[4]["action_mask"], right[4]["action_mask"]), step
        assert np.array_equal(left[4]["seed"], right[4]["seed"]), step
        np.testing.assert_array_equal(
            right[4]["action_mask"].astype(np.bool_), vector.unwrapped.action_masks()
        )
        infos = left[4]
        ended += int(left[2].sum())
    return ended


def sync_of(count: int, make: Callable[[], gymnasium.Env[Any, Any]]) -> SyncVectorEnv:
    return SyncVectorEnv([make for _ in range(count)])


@pytest.fixture
def suicide(tmp_path: Path) -> Iterator[str]:
    """The example plugin (Suicide Spades), installed for the test."""
    with example_plugin_installed(tmp_path / "site"):
        yield "suicide"


def test_make_vec_builds_the_vector_environment_with_its_declared_autoreset() -> None:
    vector = gymnasium.make_vec(
        "spades_core/Spades-v0", num_envs=16, vectorization_mode="vector_entry_point"
    )
    assert isinstance(vector.unwrapped, spades_gym.SpadesVectorEnv)
    assert vector.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert vector.observation_space == batch_space(vector.single_observation_space, 16)
    assert vector.action_space == batch_space(vector.single_action_space, 16)
    assert vector.single_action_space == gymnasium.spaces.Discrete(66)
    observations, infos = vector.reset(seed=5)
    assert observations.dtype == np.float32
    assert observations in vector.observation_space
    assert infos["action_mask"].dtype == np.int8
    assert infos["_action_mask"].all()
    actions = vector.action_space.sample(mask=tuple(infos["action_mask"]))
    assert actions in vector.action_space
    observations, rewards, terminated, truncated, _ = vector.step(actions)
    assert observations in vector.observation_space
    assert rewards.dtype == np.float64
    assert rewards.shape == (16,)
    assert terminated.dtype == truncated.dtype == np.bool_
    # Without a vectorization mode, make_vec takes the vector entry point too.
    default = gymnasium.make_vec("spades_core/Spades-v0", num_envs=2)
    assert isinstance(default.unwrapped, spades_gym.SpadesVectorEnv)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "classic", "opponents": "easy"},
        {"variant": "whiz", "opponents": "easy", "seat": "EW", "reward": "adjusted"},
        {"variant": "mirror", "opponents": "easy", "seat": "south", "reward": "margin"},
        {
            "variant": "classic",
            "opponents": "easy",
            "episode": "game",
            "reward": "win",
            "target_score": 120,
            "loss_floor": -120,
        },
        {
            "variant": "classic",
            "opponents": "easy",
            "seat": sc.Team.NS,
            "episode": "game",
            "reward": "adjusted",
            "target_score": 150,
            "bag_limit": 3,
            "first_lead": "two_of_clubs",
        },
    ],
)
def test_the_vector_environment_equals_gymnasiums_sync_vectorizer(kwargs: dict[str, Any]) -> None:
    reference = gymnasium.make_vec(
        "spades_core/Spades-v0", num_envs=5, vectorization_mode="sync", **kwargs
    )
    vector = gymnasium.make_vec(
        "spades_core/Spades-v0", num_envs=5, vectorization_mode="vector_entry_point", **kwargs
    )
    assert assert_same_run(reference, vector, seed=31, steps=130) > 0


@settings(max_examples=12, deadline=None)
@given(
    data=st.data(),
    variant=st.sampled_from(["classic", "mirror", "whiz"]),
    seed=st.integers(0, 2**64 - 8),
    seat=st.sampled_from(["N", "E", "S", "W", "NS", "EW"]),
    reward=st.sampled_from(["points", "margin", "adjusted"]),
    episode=st.sampled_from(["hand", "game"]),
)
def test_vector_and_single_environments_agree_over_random_seeds_and_option_sets(
    data: st.DataObject, variant: str, seed: int, seat: str, reward: str, episode: str
) -> None:
    options = data.draw(option_sets(variant))
    kwargs: dict[str, Any] = {"seat": seat, "reward": reward, "episode": episode, **options}
    reference = sync_of(3, lambda: spades_gym.SpadesEnv(variant, opponents=lowest_id, **kwargs))
    vector = spades_gym.SpadesVectorEnv(3, variant, opponents="lowest", **kwargs)
    assert_same_run(reference, vector, seed=seed, steps=60)


def test_seeds_may_be_one_per_table_and_unseeded_resets_go_on(suicide: str) -> None:
    kwargs: dict[str, Any] = {"variant": suicide, "opponents": "easy"}
    reference = gymnasium.make_vec(
        "spades_core/Spades-v0", num_envs=3, vectorization_mode="sync", **kwargs
    )
    vector = gymnasium.make_vec(
        "spades_core/Spades-v0", num_envs=3, vectorization_mode="vector_entry_point", **kwargs
    )
    assert assert_same_run(reference, vector, seed=[2**64 - 1, 0, 77], steps=40) > 0
    # reset() without a seed starts every table's next episode, as each single one does.
    left, right = reference.reset(), vector.reset()
    assert data_equivalence(left, right, exact=True)
    # 40 steps are two hands of 14 decisions, each followed by its autoreset
    # step, and part of a third (episode 2): the reset starts episode 3.
    assert int(right[1]["seed"][2]) == episode_seed(77, 3)


def test_the_plugin_variant_plays_in_both_environments(suicide: str) -> None:
    reference = sync_of(4, lambda: spades_gym.SpadesEnv(suicide, opponents="easy", seat="EW"))
    vector = spades_gym.SpadesVectorEnv(4, suicide, opponents="easy", seat="EW")
    assert assert_same_run(reference, vector, seed=400, steps=90) > 0
    # Suicide's rule holds at the tables: exactly one Nil per partnership.
    scored = vector.tables.scored_bids
    assert (scored >= 0).all()
    for team in (0, 1):
        assert ((scored[:, team] == 0) ^ (scored[:, team + 2] == 0)).all()


class AnyBid(ClassicVariant):
    """An uninstalled variant without array forms: any bid from 1 to 13."""

    def legal_bids(self, rules: sc.Rules, seat: sc.Seat, hand: sc.CardSet, bids: Any) -> Any:
        return range(1, 14)

    def array_forms(self) -> Any:
        return None


def test_a_variant_object_without_array_forms_plays_in_both() -> None:
    variant = like_classic(AnyBid, "any-bid")
    reference = sync_of(
        3, lambda: spades_gym.SpadesEnv(variant, opponents=lowest_id, reward="adjusted")
    )
    vector = spades_gym.SpadesVectorEnv(3, variant, opponents="lowest", reward="adjusted")
    assert assert_same_run(reference, vector, seed=8, steps=60) > 0
    # The variant's own rule: no Nil, so the lowest policy bids 1 at the other
    # seats, and the learner's random bids are never Nil either.
    scored = vector.tables.scored_bids
    assert (scored[:, 1:] == 1).all()
    assert (scored[:, 0] >= 1).all()


def test_next_step_autoreset_returns_the_final_observation_then_the_next_episode() -> None:
    vector = spades_gym.SpadesVectorEnv(2, "mirror", opponents="easy")
    singles = [spades_gym.SpadesEnv("mirror", opponents="easy") for _ in range(2)]
    _, infos = vector.reset(seed=12)
    for table, single in enumerate(singles):
        single.reset(seed=12 + table)
    first_seeds = infos["seed"].copy()
    rng = random.Random(1)
    for _ in range(13):
        actions = random_legal(infos["action_mask"], rng)
        observations, rewards, terminated, _, infos = vector.step(actions)
        for table, single in enumerate(singles):
            single.step(int(actions[table]))
        assert not terminated.any()
    # A seat's 14th decision (one bid, 13 cards) is its last of the hand.
    actions = random_legal(infos["action_mask"], rng)
    observations, rewards, terminated, _, infos = vector.step(actions)
    assert terminated.all()
    for table, single in enumerate(singles):
        final, reward, over, _, _ = single.step(int(actions[table]))
        assert over
        assert reward == rewards[table]
        # The finished game's own observation: waiting for the next deal, the scores kept.
        game = single.game
        assert game is not None
        assert np.array_equal(final, features.observation(game.view(sc.Seat.NORTH)))
        assert np.array_equal(observations[table], final)
    for row in observations:
        assert features.section(row, "phase").tolist() == [1.0, 0.0, 0.0, 0.0]
        assert features.section(row, "scores").any()
        assert not features.section(row, "hand").any()
    assert not infos["action_mask"].any()
    assert np.array_equal(infos["seed"], first_seeds)
    # The next step reads no action (an illegal id is fine) and starts the next episode.
    observations, rewards, terminated, _, infos = vector.step(np.full(2, 51))
    assert not terminated.any()
    assert not rewards.any()
    assert infos["action_mask"].any(axis=1).all()
    assert (features.section(observations[0], "phase")[1:3].sum()) == 1
    assert not np.array_equal(infos["seed"], first_seeds)


@pytest.mark.parametrize("opponents", ["random", "normal"])
def test_two_runs_with_one_seed_give_identical_trajectories(opponents: str) -> None:
    def trajectory() -> list[Any]:
        vector = spades_gym.SpadesVectorEnv(8, "whiz", opponents=opponents, reward="margin")
        rng = random.Random(3)
        record: list[Any] = [vector.reset(seed=99)]
        for _ in range(70):
            record.append(vector.step(random_legal(record[-1][-1]["action_mask"], rng)))
        return record

    first, second = trajectory(), trajectory()
    assert data_equivalence(first, second, exact=True)


def test_gymnasiums_vector_wrappers_take_it() -> None:
    from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics

    def statistics(env: Any) -> list[float]:
        wrapped = RecordEpisodeStatistics(env)
        rng = random.Random(0)
        _, infos = wrapped.reset(seed=4)
        returns: list[float] = []
        for _ in range(60):
            *_, infos = wrapped.step(random_legal(infos["action_mask"], rng))
            if "episode" in infos:
                returns += infos["episode"]["r"][infos["_episode"]].tolist()
        return returns

    kwargs: dict[str, Any] = {"variant": "classic", "opponents": "easy"}
    sync = gymnasium.make_vec("spades_core/Spades-v0", 4, vectorization_mode="sync", **kwargs)
    ours = gymnasium.make_vec("spades_core/Spades-v0", 4, **kwargs)
    assert statistics(ours) == statistics(sync) != []
    normalized = NormalizeObservation(gymnasium.make_vec("spades_core/Spades-v0", 4))
    observations, _ = normalized.reset(seed=1)
    assert observations.shape == (4, features.OBSERVATION_SIZE)


def test_an_illegal_action_raises_the_engines_reason_and_changes_nothing() -> None:
    vector = spades_gym.SpadesVectorEnv(3, "classic", illegal="raise")
    _observations, infos = vector.reset(seed=21)
    actions = random_legal(infos["action_mask"], random.Random(0))
    bad = actions.copy()
    bad[1] = 0  # a card while bidding
    with pytest.raises(sc.IllegalActionError, match="table 1") as raised:
        vector.step(bad)
    assert raised.value.reason is sc.IllegalReason.WRONG_PHASE
    for outside in (-1, 66):
        bad[1] = outside
        with pytest.raises(sc.IllegalActionError) as refused:
            vector.step(bad)
        assert refused.value.reason is sc.IllegalReason.NOT_AN_ACTION
    with pytest.raises(sc.IllegalActionError):
        vector.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(sc.IllegalActionError):
        vector.step(actions.astype(np.float64))
    np.testing.assert_array_equal(vector.action_masks(), infos["action_mask"].astype(np.bool_))
    after = vector.step(actions)
    fresh = spades_gym.SpadesVectorEnv(3, "classic")
    fresh.reset(seed=21)
    assert data_equivalence(after, fresh.step(actions), exact=True)


def test_penalize_pays_the_penalty_and_leaves_the_table_waiting() -> None:
    vector = spades_gym.SpadesVectorEnv(
        2, "classic", illegal="penalize", illegal_reward=-5, reward="margin"
    )
    observations, infos = vector.reset(seed=3)
    legal = random_legal(infos["action_mask"], random.Random(0))
    actions = legal.copy()
    actions[0] = 0  # a card while bidding
    after, rewards, _terminated, _, after_infos = vector.step(actions)
    assert rewards[0] == -5.0
    assert rewards[1] == 0.0
    assert np.array_equal(after[0], observations[0])
    assert not np.array_equal(after[1], observations[1])
    assert np.array_equal(after_infos["action_mask"][0], infos["action_mask"][0])


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"num_envs": 0}, sc.RulesError, "num_envs"),
        ({"num_envs": 2.0}, sc.ArgumentTypeError, "num_envs"),
        ({"opponents": "hard"}, sc.RulesError, "batch policies"),
        ({"opponents": 3}, sc.ArgumentTypeError, "batch policy"),
        ({"opponents": ["easy", "easy", "easy", "easy"]}, sc.RulesError, "learner's seat"),
        ({"opponents": [None, "easy", None, "easy"]}, sc.RulesError, "another seat"),
        ({"reward": "score"}, sc.RulesError, "reward"),
        ({"reward": "win"}, sc.RulesError, "episode='game'"),
        ({"episode": "match"}, sc.RulesError, "episode"),
        ({"illegal": "ignore"}, sc.RulesError, "illegal"),
        ({"illegal_reward": float("nan")}, sc.RulesError, "finite"),
        ({"illegal_reward": "-1"}, sc.ArgumentTypeError, "number"),
        ({"seat": "NE"}, sc.InvalidNotationError, "seat"),
        ({"seat": 0}, sc.ArgumentTypeError, "seat"),
        ({"variant": "no-such-variant"}, sc.VariantNotFoundError, "no-such-variant"),
        ({"target_score": -5}, sc.RulesError, "target_score"),
        ({"render_mode": "human"}, sc.RulesError, "render"),
    ],
)
def test_bad_arguments_raise_specific_errors(
    kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    arguments: dict[str, Any] = {"num_envs": 2, **kwargs}
    with pytest.raises(error, match=words):
        spades_gym.SpadesVectorEnv(**arguments)


def test_bad_seeds_raise_specific_errors() -> None:
    vector = spades_gym.SpadesVectorEnv(4)
    with pytest.raises(sc.RulesError, match="seed"):
        vector.reset(seed=2**64 - 2)  # table 3 would need 2**64 + 1
    with pytest.raises(sc.RulesError, match="seed"):
        vector.reset(seed=-1)
    with pytest.raises(sc.ArgumentTypeError, match="seed"):
        vector.reset(seed=[1, 2])
    with pytest.raises(sc.ArgumentTypeError, match="seed"):
        vector.reset(seed="7")  # type: ignore[arg-type]
    with pytest.raises(sc.IllegalActionError, match="reset"):
        vector.step(np.zeros(4, dtype=np.int64))


def preferring(seed: int) -> spades_gym.ArrayPolicy:
    """A deterministic array policy: the legal id a fixed random linear
    function of the observation scores highest."""
    weights = np.random.default_rng(seed).normal(size=(features.OBSERVATION_SIZE, 66))

    def choose(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> Any:
        scores = observations.astype(np.float64) @ weights
        return np.where(masks == 1, scores, -np.inf).argmax(axis=1)

    return spades_gym.ArrayPolicy(choose)


@pytest.mark.parametrize("variant", ["classic", "whiz"])
def test_an_array_policy_plays_alike_in_both_environments(variant: str) -> None:
    # Array policies at East and West, the easy policy at South: what each sees
    # is its own seat's observation, in both environments.
    opponents = [None, preferring(1), "easy", preferring(2)]
    reference = sync_of(
        3, lambda: spades_gym.SpadesEnv(variant, opponents=opponents, reward="margin")
    )
    vector = spades_gym.SpadesVectorEnv(3, variant, opponents=opponents, reward="margin")
    assert assert_same_run(reference, vector, seed=17, steps=45) > 0


def test_an_array_policys_illegal_or_malformed_answer_is_refused() -> None:
    def card_zero(observations: Any, masks: Any) -> Any:
        return np.zeros(len(masks), dtype=np.int64)

    def nothing(observations: Any, masks: Any) -> Any:
        return None

    def play(env: Any) -> None:
        """Reset and take the learner's first legal id until the others act."""
        _, info = env.reset(seed=1)
        for _ in range(20):
            mask = np.atleast_2d(info["action_mask"])
            actions = mask.argmax(axis=1)
            *_, info = env.step(actions if mask.shape[0] > 1 else int(actions[0]))

    for policy, reason in (
        (card_zero, sc.IllegalReason.WRONG_PHASE),  # a card while bidding
        (nothing, sc.IllegalReason.NOT_AN_ACTION),
    ):
        opponents = spades_gym.ArrayPolicy(policy)
        with pytest.raises(sc.IllegalActionError) as raised:
            play(spades_gym.SpadesVectorEnv(2, "classic", seat="W", opponents=opponents))
        assert raised.value.reason is reason
        with pytest.raises(sc.IllegalActionError) as single:
            play(spades_gym.SpadesEnv("classic", seat="W", opponents=opponents))
        assert single.value.reason is reason


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=8),
    st.lists(st.integers(0, 2**40), min_size=8, max_size=8),
)
def test_episode_seeds_on_arrays_equal_episode_seed(bases: list[int], episodes: list[int]) -> None:
    numbers = [0, *episodes][: len(bases)]
    got = episode_seeds(np.array(bases, dtype=np.uint64), np.array(numbers, dtype=np.int64))
    assert got.dtype == np.uint64
    assert got.tolist() == [episode_seed(b, k) for b, k in zip(bases, numbers, strict=True)]


def test_normal_batch_policy_seats_bid_as_the_normal_bot() -> None:
    # The normal batch policy bids as the normal bot: with the learner bidding
    # the lowest legal bid in both environments, every table's four bids are equal.
    count = 16
    vector = spades_gym.SpadesVectorEnv(count, "mirror", opponents="normal", seat="S")
    sync = sync_of(count, lambda: spades_gym.SpadesEnv("mirror", opponents="normal", seat="S"))
    _, infos = vector.reset(seed=40)
    _, sync_infos = sync.reset(seed=40)
    # The seats before South have bid alike: South's bids are the same.
    assert np.array_equal(infos["action_mask"], sync_infos["action_mask"])
    assert infos["action_mask"][:, encoding.BID_ID_BASE :].any(axis=1).all()
    actions = infos["action_mask"].argmax(axis=1)
    vector.step(actions)
    sync.step(actions)
    tables = vector.tables
    for table, env in enumerate(sync.envs):
        game = env.unwrapped.game  # type: ignore[attr-defined]
        assert game is not None
        assert tables.bids[table].tolist() == [-1 if b is None else b for b in game.bids.values_]
