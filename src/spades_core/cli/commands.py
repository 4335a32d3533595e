"""What the player types in ``spades play`` and the answers, in the board's
notation (``South``, ``2♣``, ``10♦``).

These are pure functions of the game or the player's view, so the loop in
:mod:`spades_core.cli.session` only decides when to call them:

* :func:`read_bid` and :func:`read_card` turn a line into an action or a
  message saying why it cannot be taken (a bid the rules refuse gets the
  variant's own sentence: ``You cannot bid 13. In Classic Spades … so you may
  bid Nil or 1-3.``);
* :func:`card_numbers` numbers the cards of the hand as dealt, so a card
  keeps its number for the whole hand;
* :func:`last_trick_lines` and :func:`score_lines` answer ``last`` and ``score``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from spades_core.cli import render
from spades_core.cli.render import Style, seat_name
from spades_core.engine.game import Game
from spades_core.engine.views import View
from spades_core.rules.results import Trick
from spades_core.rules.variant import describe_bids
from spades_core.values.actions import Bid, Play
from spades_core.values.cards import ALL_CARDS, Card, CardSet
from spades_core.values.errors import IllegalActionError, SpadesError, brief
from spades_core.values.seats import Team

__all__ = [
    "HELP",
    "bid_choices",
    "card_numbers",
    "last_trick_lines",
    "read_bid",
    "read_card",
    "refusal",
    "score_lines",
]

HELP: Final = """\
Commands:
  a card          play it: QH, 10h, q♥, Q♥ (rank then suit)
  a number        while playing: the card with that number in your hand
                  (a card keeps its number for the whole hand);
                  while bidding: your bid (0 or nil for Nil)
  nil             bid Nil
  Enter           take the only legal action, when there is just one
  hint            ask the coach for a move and the reason
  show            show the table and your hand again
  last            show the previous trick
  score           show the score after each hand
  review [N]      replay the last finished hand (or hand N) with every hand
                  seen: each card that cost a contract or took a needless bag
  save FILE       save the game as a record to FILE (resume with --resume FILE)
  help            this list
  quit            save and leave (resume with --continue)"""
"""The answer to ``help``."""


def bid_choices(values: Sequence[int]) -> str:
    """The legal bids for a prompt: ``Nil or 1-13``, ``Nil or 4``, ``4``.

    >>> bid_choices(range(14)), bid_choices([0, 4]), bid_choices([1, 2, 3])
    ('Nil or 1-13', 'Nil or 4', '1-3')
    """
    return describe_bids(values)


def read_bid(text: str, view: View) -> Bid | str:
    """The bid ``text`` asks for (``3``, ``nil``, ``bid 3``) if the player
    may make it, otherwise the message saying why not and what they may bid."""
    typed = (text.split()[-1] if text.lower().startswith("bid ") else text).strip()
    try:
        bid = Bid.of(typed)
    except IllegalActionError:
        # A number is quoted as every refused bid is, bare (99, like 5);
        # anything else as the text it is ('five').
        shown = typed if re.fullmatch(r"[+-]?\d{1,6}", typed) else brief(typed)
        return _bid_refusal(shown, view, "bids are Nil (0) or 1 to 13")
    if bid in view.legal_actions():
        return bid
    limits = view.explain_bids()
    if limits is None:  # pragma: no cover - a refused bid means the bids are limited
        return _bid_refusal(render.bid_text(bid.value), view, "the rules do not allow it")
    return f"You cannot bid {render.bid_text(bid.value)}. {limits}"


def _bid_refusal(shown: str, view: View, reason: str) -> str:
    legal = [action.value for action in view.legal_actions() if isinstance(action, Bid)]
    return f"You cannot bid {shown}: {reason}. You may bid {bid_choices(legal)}."


def card_numbers(dealt: CardSet) -> dict[Card, int]:
    """Each card of the hand as dealt with its number, 1 upwards in display
    order; the numbers stay the same while the cards are played."""
    return {card: number for number, card in enumerate(render.sorted_hand(dealt), 1)}


def read_card(text: str, view: View, numbers: Mapping[Card, int]) -> Play | str:
    """The card ``text`` names (notation such as ``QH``, ``10h`` or ``Q♥``,
    or its number in ``numbers``) if the player may play it, otherwise the
    message saying why not."""
    words = text.split()
    if len(words) == 2 and words[0].lower() == "play":
        text = words[1]
    text = text.strip()
    plain = Style(colour=False)
    if text.isdigit():
        by_number = {number: card for card, number in numbers.items()}
        card = by_number.get(int(text)) if len(text) <= 2 else None
        if card is None:
            shown = text if len(text) <= 4 else text[:3] + "…"
            return (
                f"There is no card number {shown}: your cards are numbered 1 to "
                f"{len(numbers)}; type 'show' to see them."
            )
        if card not in view.hand():
            return f"Card {text}, the {render.card_text(card, plain)}, has been played already."
    else:
        try:
            card = Card.parse(text)
        except SpadesError:
            return (
                f"{brief(text)} is not a card: type rank then suit, like Q♥, QH or 10d, "
                "or the card's number."
            )
    play = Play.of(card)
    if play in view.legal_actions():
        return play
    return refusal(play, view)


def refusal(play: Play, view: View) -> str:
    """Why the player in ``view`` may not play ``play``, in the board's notation."""
    plain = Style(colour=False)
    card = render.card_text(play.card, plain)
    if play.card not in view.hand():
        return f"You do not hold the {card}."
    if view.current_trick:
        led = view.current_trick[0][1].suit
        follow = _cards_text(view.hand().suit(led))
        return (
            f"You must follow {led.name.lower()} while you hold any ({follow}), "
            f"so you cannot play the {card}."
        )
    legal = CardSet.of(a.card for a in view.legal_actions() if isinstance(a, Play))
    if len(legal) == 1 and ALL_CARDS[0] in legal and not view.tricks:
        return f"The first trick must be led with the {render.card_text(ALL_CARDS[0], plain)}."
    return (
        f"You cannot lead the {card}: spades are not broken yet and you hold other suits. "
        f"You may lead {_cards_text(legal)}."
    )


def _cards_text(cards: CardSet) -> str:
    plain = Style(colour=False)
    return " ".join(render.card_text(card, plain) for card in render.sorted_hand(cards))


def last_trick_lines(game: Game, style: Style) -> list[str]:
    """The previous trick (of this hand, or the last of the previous hand)."""
    trick: Trick
    if game.tricks:
        trick, number, hand = game.tricks[-1], len(game.tricks), game.hand_number
    elif game.hand_results:
        result = game.hand_results[-1]
        trick, number, hand = result.played[-1], len(result.played), result.number
    else:
        return ["No trick has been played yet."]
    return [
        f"Hand {hand + 1}, trick {number}: {render.trick_text(trick.plays, style)} "
        f"→ {seat_name(trick.winner)} wins"
    ]


def score_lines(game: Game, style: Style) -> list[str]:
    """The score after each finished hand: each team's points for the hand,
    running score and bags."""
    if not game.hand_results:
        return ["No hand has been scored yet."]
    lines = [style.heading("Hand      NS: points  score  bags      EW: points  score  bags")]
    for result in game.hand_results:
        cells = [
            f"{style.points(result.points[team], 10)}  {result.scores[team]:>5}  "
            f"{result.bags[team]:>4}"
            for team in Team
        ]
        lines.append(f"{result.number + 1:>4}  {cells[0]}  {cells[1]}")
    return lines
