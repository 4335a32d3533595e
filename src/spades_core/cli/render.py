"""Text rendering shared by ``spades play`` and ``spades watch``.

Everything here turns a :class:`~spades_core.views.View` (or a game's
finished hand) into lines of text, so the terminal game
shows a player exactly what their seat may know. Colour is used only when
the output is a terminal and the ``NO_COLOR`` environment variable is unset
(https://no-color.org); otherwise the text is plain, which is what tests and
pipes see.

>>> from spades_core import CardSet
>>> plain = Style(colour=False)
>>> [card_text(card, plain) for card in sorted_hand(CardSet.parse("2C TH AS 9S KD"))]
['A♠', '9♠', '10♥', '2♣', 'K♦']
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping, Sequence
from typing import Final, TextIO, final

import attrs

from spades_core.engine.game import Game, Phase
from spades_core.engine.views import View
from spades_core.rules.hooks import score_breakdown
from spades_core.values.actions import Action, Bid, Deal, Play
from spades_core.values.cards import Card, CardSet, Suit
from spades_core.values.options import Rules
from spades_core.values.seats import Seat, Team

__all__ = [
    "DISPLAY_SUIT_ORDER",
    "Style",
    "action_text",
    "bid_text",
    "board_notation",
    "card_text",
    "game_end_text",
    "hand_line",
    "hand_lines",
    "result_lines",
    "screen_lines",
    "seat_name",
    "sorted_hand",
    "table_lines",
    "trick_text",
    "use_colour",
    "visible_width",
    "wrapped",
]

DISPLAY_SUIT_ORDER: Final = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Suits in the order a hand is shown: trumps first, then alternating colours."""

_RANK_TEXT: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RED_SUITS: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_SEAT_NAMES: Final = ("North", "East", "South", "West")


def use_colour(stream: TextIO) -> bool:
    """Whether to colour output written to ``stream``: only on a terminal,
    and never when ``NO_COLOR`` is set to a non-empty value."""
    if os.environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False


@final
@attrs.frozen
class Style:
    """ANSI styling that is a no-op when ``colour`` is off."""

    colour: bool

    def _wrap(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def bold(self, text: str) -> str:
        """``text`` in bold."""
        return self._wrap(text, "1")

    def dim(self, text: str) -> str:
        """``text`` faint (cards you may not play)."""
        return self._wrap(text, "2")

    def red(self, text: str) -> str:
        """``text`` in red (hearts, diamonds, losses)."""
        return self._wrap(text, "31")

    def green(self, text: str) -> str:
        """``text`` in green (gains)."""
        return self._wrap(text, "32")

    def heading(self, text: str) -> str:
        """``text`` as a section heading."""
        return self._wrap(text, "1;36")

    def points(self, value: int, width: int = 0) -> str:
        """A signed score change, right-aligned in ``width`` columns, green
        when positive and red when negative."""
        text = (f"{value:+d}" if value else "0").rjust(width)
        if value > 0:
            return self.green(text)
        if value < 0:
            return self.red(text)
        return text


_COLOUR_CODE: Final = re.compile(r"\x1b\[[0-9;]*m")
_WORDS: Final = re.compile(r"(\s*)(\S+)")


def visible_width(text: str) -> int:
    """The columns ``text`` takes on a terminal: its length without colour codes."""
    return len(_COLOUR_CODE.sub("", text))


def wrapped(text: str, width: int) -> list[str]:
    """``text`` as lines of at most ``width`` columns, broken at spaces.

    Each line of ``text`` is wrapped on its own; a line that fits is kept as
    it is, spacing and all, and the lines a long one continues on keep its
    indent and two spaces more. Colour codes take no columns (which is why
    this does not use :mod:`textwrap`, which counts them), and a word longer
    than a line (a file's path) is kept whole on a line of its own.

    >>> wrapped("Coach: lead a low heart, since North may still hold the ace.", 28)
    ['Coach: lead a low heart,', '  since North may still hold', '  the ace.']
    >>> wrapped("  hint   the coach's move", 40)
    ["  hint   the coach's move"]
    """
    lines: list[str] = []
    for line in text.split("\n"):
        if visible_width(line) <= width:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        more = indent + "  " if len(indent) + 2 < width // 2 else ""
        current = ""
        for found in _WORDS.finditer(line, len(indent)):
            gap, word = found.groups()
            if not current:
                current = indent + word
            elif visible_width(current) + len(gap) + visible_width(word) <= width:
                current += gap + word
            else:
                lines.append(current)
                current = more + word
        lines.append(current)
    return lines


def screen_lines(text: str, *, wrap: bool) -> list[str]:
    """The lines to write for ``text``: with ``wrap`` (the output is a
    terminal), :func:`wrapped` to the terminal's width as it is now;
    otherwise as they are, since a pipe or a file has no width."""
    if not wrap:
        return text.split("\n")
    return wrapped(text, shutil.get_terminal_size().columns)


def seat_name(seat: Seat) -> str:
    """``"North"``, ``"East"``, ``"South"`` or ``"West"``."""
    return _SEAT_NAMES[seat]


def card_text(card: Card, style: Style) -> str:
    """A card for people: rank then suit symbol (``10♥``), red suits in red."""
    text = card.symbol
    return style.red(text) if card.suit in _RED_SUITS else text


def bid_text(bid: int | None) -> str:
    """A bid for people: ``Nil`` for 0, ``—`` for no bid yet."""
    if bid is None:
        return "—"
    return "Nil" if bid == 0 else str(bid)


# A quoted stretch (text echoed as it was given: left alone), or a seat or a
# card as the library writes them. A quote opens after a non-word character,
# so the apostrophe of "WEST's" opens none.
_LIBRARY_WORDS: Final = re.compile(
    r"(?<!\w)'[^']*'(?!\w)|(?<!\w)\"[^\"]*\"(?!\w)"
    r"|\b(?P<seat>NORTH|EAST|SOUTH|WEST)\b|\b(?P<card>(?:10|[2-9TJQKA])[SHDC])\b"
)


def board_notation(text: str) -> str:
    """``text`` written by the engine (an error message) in the board's
    notation: seats as ``West`` rather than ``WEST``, cards as ``6♥`` and
    ``10♥`` rather than ``6H`` and ``TH``. Quoted text, echoed as it was
    given, is left alone.

    >>> board_notation("6H by WEST (trick 2): WEST must follow clubs (QC TC) and cannot play 6H")
    'West plays 6♥ (trick 2): West must follow clubs (Q♣ 10♣) and cannot play 6♥'
    >>> board_notation("not a card: 'QX'; give a card like 'QH'")
    "not a card: 'QX'; give a card like 'QH'"
    """

    def rewrite(found: re.Match[str]) -> str:
        if found["seat"]:
            return seat_name(Seat[found["seat"]])
        if found["card"]:
            return Card.parse(found["card"]).symbol
        return found[0]

    return _LIBRARY_WORDS.sub(rewrite, _ACTION_BY_SEAT.sub(_seat_first, text))


# The engine's "6H by WEST" and "bid 3 by WEST": the board says "West plays 6♥".
_ACTION_BY_SEAT: Final = re.compile(
    r"\b(?:(?P<bid>bid (?:\d+|Nil))|(?P<card>(?:10|[2-9TJQKA])[SHDC])) by "
    r"(?P<seat>NORTH|EAST|SOUTH|WEST)\b"
)


def _seat_first(found: re.Match[str]) -> str:
    if found["bid"]:
        return f"{found['seat']} bids {found['bid'].removeprefix('bid ')}"
    return f"{found['seat']} plays {found['card']}"


def action_text(action: Action, style: Style, *, imperative: bool = False) -> str:
    """An action for people: ``bids 3``, ``plays Q♥``; with ``imperative``,
    ``bid 3``, ``play Q♥`` (for advice)."""
    ending = "" if imperative else "s"
    if isinstance(action, Bid):
        return f"bid{ending} {bid_text(action.value)}"
    if isinstance(action, Play):
        return f"play{ending} {card_text(action.card, style)}"
    assert isinstance(action, Deal)
    return f"deal{ending}"


def sorted_hand(hand: CardSet) -> list[Card]:
    """The cards in display order: by suit (``DISPLAY_SUIT_ORDER``), high to low.
    ``spades play`` numbers the hand as dealt in this order, starting at 1."""
    return [card for suit in DISPLAY_SUIT_ORDER for card in reversed(list(hand.suit(suit)))]


def hand_lines(
    hand: CardSet,
    style: Style,
    *,
    legal: CardSet | None = None,
    numbers: Mapping[Card, int] | None = None,
) -> list[str]:
    """One line per suit. With ``legal``, cards that may be played carry a
    ``*`` (and the others are dimmed on a terminal); with ``numbers``, each
    card shows its number from that mapping (the player types it to play the card)."""
    lines = []
    for suit in DISPLAY_SUIT_ORDER:
        entries = []
        for card in reversed(list(hand.suit(suit))):
            text = card_text(card, style)
            if numbers is not None:
                text = f"{numbers[card]:>2} {text}"
            if legal is not None:
                text = style.bold(text) + "*" if card in legal else style.dim(text) + " "
            entries.append(text)
        symbol = style.red(suit.symbol) if suit in _RED_SUITS else suit.symbol
        lines.append(f"  {symbol}  " + ("  ".join(entries) if entries else "—"))
    return lines


def hand_line(hand: CardSet, style: Style) -> str:
    """A whole hand on one line, by suit, high to low: ``♠ A Q 6  ♥ 10 9 …``.

    >>> hand_line(CardSet.parse("AS QS 6S TH 2C"), Style(colour=False))
    '♠ A Q 6  ♥ 10  ♣ 2  ♦ —'
    """
    groups = []
    for suit in DISPLAY_SUIT_ORDER:
        ranks = [_RANK_TEXT[card.rank] for card in reversed(list(hand.suit(suit)))]
        text = f"{suit.symbol} {' '.join(ranks) if ranks else '—'}"
        groups.append(style.red(text) if suit in _RED_SUITS else text)
    return "  ".join(groups)


def trick_text(plays: Sequence[tuple[Seat, Card]], style: Style) -> str:
    """The cards of a trick in play order: ``West 5♦, North K♦``."""
    return ", ".join(f"{seat_name(seat)} {card_text(card, style)}" for seat, card in plays)


def game_end_text(rules: Rules, hand_number: int) -> str:
    """What ends the game, seen from hand ``hand_number`` (from 0): the target
    and the loss floor, with the hand limit when there is one; on the last
    hand the limit allows, just that, for it ends the game whatever the score.

    >>> from spades_core import load_variant
    >>> classic = load_variant("classic")
    >>> game_end_text(classic.rules(), 0)
    'target 500, loss floor -200'
    >>> game_end_text(classic.rules(max_hands=10), 3)
    'target 500, loss floor -200, or after hand 10'
    >>> game_end_text(classic.rules(max_hands=1), 0)
    'last hand: the game ends after it (max_hands=1)'
    """
    limit = rules.max_hands
    if limit is not None and hand_number + 1 >= limit:
        return f"last hand: the game ends after it (max_hands={limit})"
    text = f"target {rules.target_score}"
    if rules.loss_floor is not None:
        text += f", loss floor {rules.loss_floor}"
    if limit is not None:
        text += f", or after hand {limit}"
    return text


def table_lines(
    view: View,
    style: Style,
    *,
    labels: Mapping[Seat, str] | None = None,
) -> list[str]:
    """The table as ``view``'s seat sees it: variant, hand number and dealer,
    each seat's bid and tricks won, both teams' contract, score and bags, the
    trick in progress, and who is to act. ``labels`` adds a note after a seat's
    name (``"you"``, ``"partner, normal"``)."""
    labels = labels or {}
    lines = [
        style.heading(
            f"{view.variant.title} · hand {view.hand_number + 1} · "
            f"dealer {seat_name(view.dealer)} · {game_end_text(view.rules, view.hand_number)}"
        )
    ]
    names = {
        seat: seat_name(seat) + (f" ({labels[seat]})" if seat in labels else "") for seat in Seat
    }
    width = max(len(name) for name in names.values())
    lines.append(f"  {'Seat':<{width}}  Bid  Won")
    for seat in Seat:
        marker = ""
        if view.to_act == seat and view.phase in (Phase.BID, Phase.PLAY):
            marker = "  ◀ to bid" if view.phase is Phase.BID else "  ◀ to play"
        won = view.tricks_won[seat] if view.phase is Phase.PLAY else 0
        lines.append(
            f"  {names[seat]:<{width}}  {bid_text(view.bids[seat]):>3}  {won:>3}"
            + style.bold(marker)
        )
    for team in Team:
        first, second = team.seats
        bids = [view.bids[first], view.bids[second]]
        contract = sum(bid for bid in bids if bid is not None)
        won = view.tricks_won[first] + view.tricks_won[second]
        lines.append(
            f"  {team.name}: contract {contract if None not in bids else '?'}, won {won}"
            f" · score {view.scores[team]}, bags {view.bags[team]}"
        )
    if view.phase is Phase.PLAY:
        number = len(view.tricks) + 1
        broken = "spades broken" if view.spades_broken else "spades not broken"
        if view.current_trick:
            lines.append(f"  Trick {number}: {trick_text(view.current_trick, style)} ({broken})")
        else:
            leader = seat_name(view.leader) if view.leader is not None else "?"
            lines.append(f"  Trick {number}: {leader} to lead ({broken})")
    return lines


def result_lines(game: Game | View, style: Style, hand: int = -1) -> list[str]:
    """The end-of-hand report of a finished hand of ``game`` (the last one
    by default): bids and tricks per seat, then each team's score items as
    the variant itemises them (:func:`spades_core.scoring.score_breakdown`),
    hand total, running score and bags."""
    result = game.hand_results[hand]
    breakdown = score_breakdown(game, hand)
    lines = [style.heading(f"Hand {result.number + 1} scored")]
    for seat in Seat:
        lines.append(
            f"  {seat_name(seat):<5}  bid {bid_text(result.bids[seat]):>3}, "
            f"took {result.tricks[seat]:>2}"
        )
    for team in Team:
        lines.append(f"  {team.name}:")
        for item in breakdown.team_items(team):
            lines.append(f"    {item.label:<52} {style.points(item.points, 6)}")
        lines.append(
            f"    {style.bold('hand')} {style.points(result.points[team])} → "
            + style.bold(f"score {result.scores[team]}, bags {result.bags[team]}")
        )
    return lines
