"""The checks of one game state: cards, tricks, turn order, scores, game end,
the shape of the legal actions, the variant's scoring hooks, and the record."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from spades_core.engine.game import SEATS, Game, Phase
from spades_core.engine.records import dumps, loads
from spades_core.rules.hooks import checked_game_end, checked_game_outcome, checked_score_hand
from spades_core.rules.phases import PhaseStep, hands_after_passes
from spades_core.rules.results import Trick
from spades_core.rules.tricks import LEFT_OF, NO_SUIT, legal_card_mask, trick_winner
from spades_core.testing._failure import ConformanceError, fail, guard, seat_text
from spades_core.values.actions import (
    DEAL_FROM_SEED,
    PHASE_ACTION_TYPES,
    Bid,
    BlindNil,
    Pass,
    Play,
)
from spades_core.values.cards import ALL_CARDS, FULL_DECK_MASK, CardSet
from spades_core.values.errors import SpadesError
from spades_core.values.options import FirstLead
from spades_core.values.seats import Seat, Team

__all__ = ["check_game", "check_record", "check_scoring_hooks"]


def _expected_winner(trick: Trick) -> Seat:
    """The seat whose card wins the trick: the highest spade, else the highest
    card of the suit led (docs/rules.md, Shared rules)."""
    return Seat((trick.leader + trick_winner([card.id for card in trick.cards])) % 4)


def _check_tricks_of_hand(label: str, dealt: Sequence[CardSet], tricks: Sequence[Trick]) -> None:
    """Each trick: four cards, suit followed, right winner, the winner leads next."""
    holding = [hand.mask for hand in dealt]
    for number, trick in enumerate(tricks):
        if len(trick.cards) != 4:
            fail("thirteen_tricks", f"{label} trick {number + 1} has {len(trick.cards)} cards")
        led = trick.cards[0].suit
        for seat, card in trick.plays:
            if not holding[seat] >> card.id & 1:
                fail("cards_conserved", f"{label}: {seat.name} played {card} without holding it")
            if (
                not legal_card_mask(holding[seat], led, broken=True, lead_two_of_clubs=False)
                & card.mask
            ):
                fail(
                    "thirteen_tricks",
                    f"{label} trick {number + 1}: {seat.name} played {card} on a "
                    f"{led.name.lower()} lead while holding {led.name.lower()}",
                )
            holding[seat] ^= card.mask
        if trick.winner != _expected_winner(trick):
            fail(
                "thirteen_tricks",
                f"{label} trick {number + 1} ({' '.join(map(str, trick.cards))} led by "
                f"{trick.leader.name}) went to {trick.winner.name}, "
                f"not {_expected_winner(trick).name}",
            )
        if number + 1 < len(tricks) and tricks[number + 1].leader != trick.winner:
            fail("turn_order", f"{label} trick {number + 2} was not led by the last winner")


def _at_start_of_play(dealt: Sequence[CardSet], steps: tuple[PhaseStep, ...]) -> list[CardSet]:
    """The hands dealt, after the passes of a variant's phases among ``steps``."""
    masks = hands_after_passes(tuple(hand.mask for hand in dealt), steps)
    return [CardSet(mask) for mask in masks]


def _check_cards(game: Game) -> None:
    if game.phase not in (Phase.BID, Phase.PLAY, Phase.VARIANT):
        for seat in SEATS:
            if game.hand(seat):
                fail("cards_conserved", f"{seat.name} holds cards outside a hand")
        return
    dealt = [game.dealt_hand(seat) for seat in SEATS]
    seen = 0
    for seat, hand in zip(SEATS, dealt, strict=True):
        if len(hand) != 13:
            fail("cards_conserved", f"{seat.name} was dealt {len(hand)} cards, not 13")
        if seen & hand.mask:
            fail("cards_conserved", f"{seat.name} was dealt a card another seat holds")
        seen |= hand.mask
    if seen != FULL_DECK_MASK:
        fail("cards_conserved", "the deal does not cover the whole deck")
    dealt = _at_start_of_play(dealt, game.phase_steps)
    played = [0, 0, 0, 0]
    for trick in game.tricks:
        for seat, card in trick.plays:
            played[seat] |= card.mask
    for seat, card in game.current_trick:
        played[seat] |= card.mask
    for seat in SEATS:
        held = game.hand(seat).mask
        if held & played[seat]:
            fail("cards_conserved", f"{seat.name} still holds a card it played")
        if held | played[seat] != dealt[seat].mask:
            fail(
                "cards_conserved",
                f"{seat.name}'s held and played cards are not what it was dealt",
            )


def _check_hand_in_progress(game: Game) -> None:
    phase = game.phase
    tricks = game.tricks
    current = game.current_trick
    if phase is not Phase.PLAY and (tricks or current):
        fail("thirteen_tricks", f"tricks are recorded in the {phase.name} phase")
    if phase is Phase.PLAY:
        if len(tricks) > 12:
            fail("thirteen_tricks", f"{len(tricks)} tricks completed and the hand not scored")
        if len(current) > 3:
            fail("thirteen_tricks", "the current trick has four cards and was not completed")
        dealt = _at_start_of_play([game.dealt_hand(seat) for seat in SEATS], game.phase_steps)
        _check_tricks_of_hand("this hand", dealt, tricks)
        won = [0, 0, 0, 0]
        for trick in tricks:
            won[trick.winner] += 1
        if list(game.tricks_won.values()) != won:
            fail("thirteen_tricks", f"tricks_won {list(game.tricks_won.values())} != {won}")


def _check_turn(game: Game) -> None:
    phase = game.phase
    first = game.first_dealer
    expected_dealer = SEATS[(first + max(game.hand_number - (phase is Phase.GAME_OVER), 0)) % 4]
    if game.dealer != expected_dealer:
        fail("turn_order", f"hand {game.hand_number} is dealt by {game.dealer.name}")
    bids = {
        seat: bid for seat, bid in zip(SEATS, game.bids.values_, strict=True) if bid is not None
    }
    if phase is Phase.BID:
        first_bidder = LEFT_OF[game.dealer]
        # A seat that declared Blind Nil in a variant's phase does not bid.
        blind = {step.seat for step in game.phase_steps if type(step.action) is BlindNil}
        bids = {seat: bid for seat, bid in bids.items() if seat not in blind}
        order = [SEATS[(first_bidder + i) % 4] for i in range(4)]
        order = [seat for seat in order if seat not in blind]
        if set(bids) != set(order[: len(bids)]) or len(bids) >= len(order):
            fail("turn_order", f"bids {dict(bids)} are not in order from left of the dealer")
        if game.to_act != order[len(bids)]:
            fail("turn_order", f"{seat_text(game.to_act)} is to bid, not {order[len(bids)].name}")
    elif phase is Phase.PLAY:
        if len(bids) != 4:
            fail("turn_order", f"play started with {len(bids)} bids")
        leader = game.leader
        if leader is None:
            fail("turn_order", "no leader during play")
        if game.tricks:
            expected_leader = game.tricks[-1].winner
        elif game.rules.first_lead is FirstLead.TWO_OF_CLUBS:
            start = _at_start_of_play([game.dealt_hand(s) for s in SEATS], game.phase_steps)
            expected_leader = next(s for s in SEATS if ALL_CARDS[0] in start[s])
        else:
            expected_leader = SEATS[LEFT_OF[game.dealer]]
        if leader != expected_leader:
            fail("turn_order", f"{leader.name} leads; {expected_leader.name} should")
        on_move = SEATS[(leader + len(game.current_trick)) % 4]
        if game.to_act != on_move:
            fail("turn_order", f"{seat_text(game.to_act)} is to play, not {on_move.name}")
        if [seat for seat, _ in game.current_trick] != [
            SEATS[(leader + i) % 4] for i in range(len(game.current_trick))
        ]:
            fail("turn_order", "the current trick is not played clockwise from the leader")
    elif phase is Phase.VARIANT:
        if game.to_act is None:
            fail("turn_order", f"nobody is to act in the variant's phase {game.phase_name!r}")
    elif game.to_act is not None:
        fail("turn_order", f"{game.to_act.name} is to act in the {phase.name} phase")


def _check_phase_actions(game: Game, legal: Sequence[object]) -> None:
    """A variant's phase offers distinct phase actions; passes only of cards
    the seat to act holds, one card each."""
    if len(set(legal)) != len(legal) or any(type(a) not in PHASE_ACTION_TYPES for a in legal):
        fail("legal_actions", f"the {game.phase_name!r} phase offers {legal!r}")
    seat = game.to_act
    assert seat is not None
    for action in legal:
        if type(action) is Pass and (len(action.cards) != 1 or action.cards - game.hand(seat)):
            fail("legal_actions", f"{seat.name} is offered {action} of cards it does not hold")


def _check_results(game: Game) -> None:
    variant = game.variant
    scores = (0, 0)
    bags = (0, 0)
    results = game.hand_results
    for number, result in enumerate(results):
        label = f"hand {number}"
        if result.number != number:
            fail("scores", f"{label} is numbered {result.number}")
        if result.dealer != SEATS[(game.first_dealer + number) % 4]:
            fail("turn_order", f"{label} was dealt by {result.dealer.name}")
        points = tuple(result.points.values())
        hand_bags = tuple(result.bags.values())
        if len(points) != 2 or any(type(p) is not int for p in points):
            fail("scores", f"{label} scored {points!r}: hand scores must be whole numbers")
        if len(hand_bags) != 2 or any(type(b) is not int or b < 0 for b in hand_bags):
            fail("scores", f"{label} left bags {hand_bags!r}: bags are whole numbers >= 0")
        scores = (scores[0] + points[0], scores[1] + points[1])
        if tuple(result.scores.values()) != scores:
            fail(
                "scores",
                f"{label}: running scores {tuple(result.scores.values())} are not the "
                f"sum of the hand scores {scores}",
            )
        bags = (hand_bags[0], hand_bags[1])
        if any(type(b) is not int or not 0 <= b <= 13 for b in result.bids.values()):
            fail("scores", f"{label} has bids {list(result.bids.values())}")
        if len(result.played) != 13:
            fail("thirteen_tricks", f"{label} was scored after {len(result.played)} tricks")
        won = [0, 0, 0, 0]
        for trick in result.played:
            won[trick.winner] += 1
        if list(result.tricks.values()) != won or sum(won) != 13:
            fail("thirteen_tricks", f"{label} credits tricks {list(result.tricks.values())}")
        dealt = list(result.deal.values())
        if (
            sum(len(hand) for hand in dealt) != 52
            or CardSet(sum(hand.mask for hand in dealt)) != CardSet.full_deck()
        ):
            fail("cards_conserved", f"{label} was not dealt the whole deck")
        _check_tricks_of_hand(label, _at_start_of_play(dealt, result.steps), result.played)
        over, outcome = guard(
            "game_end",
            "game_outcome",
            partial(checked_game_end, variant, game.rules, scores, number + 1),
        )
        final = number == len(results) - 1 and game.is_over
        if final and (not over or outcome != game.winner):
            fail("game_end", f"the game ended with winner {game.winner}; the rules say {outcome}")
        if not final and over:
            fail("game_end", f"after {label} the game is over by the rules but play went on")
    if tuple(game.scores.values()) != scores:
        fail("scores", f"scores {tuple(game.scores.values())} != sum of hand scores {scores}")
    if tuple(game.bags.values()) != bags:
        fail("scores", f"bags {tuple(game.bags.values())} != bags after the last hand {bags}")


def _check_legal_shape(game: Game) -> None:
    legal = guard("legal_actions", "legal_actions()", game.legal_actions)
    phase = game.phase
    over = game.is_over
    # A game without a winner is over only as a draw at the hand limit.
    draw = (
        len(game.hand_results) == game.rules.max_hands
        and game.scores[Team.NS] == game.scores[Team.EW]
    )
    if over != (phase is Phase.GAME_OVER) or over != (game.winner is not None or draw):
        fail("game_end", f"phase {phase.name} with winner {game.winner}")
    if over:
        if legal:
            fail("legal_actions", f"the game is over but {len(legal)} actions are legal")
        return
    if not legal:
        fail("legal_actions", f"no legal action in the {phase.name} phase")
    if phase is Phase.DEAL:
        if legal != (DEAL_FROM_SEED,):
            fail("legal_actions", f"the DEAL phase offers {legal!r}")
        return
    if phase is Phase.BID:
        values = [action.value for action in legal if type(action) is Bid]
        if len(values) != len(legal):
            fail("legal_actions", f"the BID phase offers {legal!r}")
        if values != sorted(set(values)) or tuple(values) != game.legal_bids():
            fail("legal_actions", f"legal bids {values} are not distinct and ascending")
        return
    if phase is Phase.VARIANT:
        _check_phase_actions(game, legal)
        return
    played = [action.card for action in legal if type(action) is Play]
    if len(played) != len(legal):
        fail("legal_actions", f"the PLAY phase offers {legal!r}")
    seat = game.to_act
    if seat is None:
        fail("turn_order", "nobody is to play in the PLAY phase")
    held = game.hand(seat)
    offered = CardSet.of(played)
    if offered != game.legal_cards() or len(offered) != len(legal):
        fail("legal_actions", "legal_cards() and legal_actions() disagree")
    current = game.current_trick
    two_of_clubs = game.rules.first_lead is FirstLead.TWO_OF_CLUBS
    led = current[0][1].suit if current else NO_SUIT
    first_lead = two_of_clubs and not current and not game.tricks
    expected = CardSet(legal_card_mask(held.mask, led, game.spades_broken, first_lead))
    if offered != expected:
        fail("legal_actions", f"{seat.name} may play {offered}; the rules allow {expected}")


def check_game(game: Game, *, finished_hands: bool = True) -> None:
    """Check every invariant of one game state (cards, tricks, turn order,
    scores, game end, the shape of the legal actions); raise
    :class:`ConformanceError` on the first one broken.

    ``finished_hands=False`` skips re-checking the finished hands, which do
    not change while a hand is played.

    >>> import spades_core as sc
    >>> check_game(sc.new_game("classic", seed=1).deal().bid(3))
    """
    _check_cards(game)
    _check_hand_in_progress(game)
    _check_turn(game)
    if finished_hands:
        _check_results(game)
    _check_legal_shape(game)


def check_scoring_hooks(game: Game, last: Play) -> None:
    """Call the variant's scoring hooks on the hand ``last`` completes, before
    the engine does, so a malformed answer is reported as what it is."""
    variant, rules = game.variant, game.rules
    leader = game.leader
    assert leader is not None
    cards = (*(card for _, card in game.current_trick), last.card)
    winner = _expected_winner(Trick(leader, cards, leader))
    won = list(game.tricks_won.values())
    won[winner] += 1
    bids: tuple[int, ...] = game.bids.values_  # type: ignore[assignment]  # all made
    bags_before = (game.bags[Team.NS], game.bags[Team.EW])
    try:
        points, _ = checked_score_hand(variant, rules, bids, tuple(won), bags_before)
    except SpadesError as error:
        raise ConformanceError(
            "scores", f"for bids {list(bids)} and tricks {won}: {error}"
        ) from error
    scores = (game.scores[Team.NS] + points[0], game.scores[Team.EW] + points[1])
    try:
        checked_game_outcome(variant, rules, scores)
    except SpadesError as error:
        raise ConformanceError("game_end", str(error)) from error


def check_record(game: Game) -> None:
    """The game saved with :func:`spades_core.records.dumps` loads back equal,
    and saves again to the same text."""
    text = guard("records", "dumps", lambda: dumps(game))
    back = guard("records", "loads", lambda: loads(text, variant=game.variant))
    if back != game:
        fail("records", f"the record loads back as a different game: {text[:200]}")
    if guard("records", "dumps", lambda: dumps(back)) != text:
        fail("records", "a loaded record saves to different text")
