"""A person at the table: the seat arranged at the terminal by ``thirteen play
--interactive``.

The person sees the hand sorted, the hints (牌型提示) front → middle → back, and types a
hint's number or the three lanes as ``front | middle | back``. A mistake is named: the
lane that has the wrong number of cards, the card that is not in the hand or is used
twice, the lane that fouls (相公). Under a rule set that deals 16 (多三张) the person first
sets 3 cards aside. Prompts go to the screen given (standard error under ``--json``);
answers are read from standard input. When the input ends, the engine plays the seat.
"""

from __future__ import annotations

from collections import Counter
from typing import List, Optional, Sequence, Tuple, Union

from rich.text import Text

import thirteen
from thirteen._core import Arrangement, Card, Declaration
from thirteen.commands.render import LANES, Screen, foul_reason, signed
from thirteen.errors import ThirteenError
from thirteen.rules import RuleSet

__all__ = ["Mistake", "Person", "read_cards", "read_lanes"]

Submission = Union[Arrangement, Declaration]

_LANE_SIZES = {"front": 3, "middle": 5, "back": 5}


class Mistake(Exception):
    """What the person typed cannot be played; the message says why, in their terms."""


def read_cards(text: str, where: str = "") -> List[Card]:
    """The cards in ``text``; a bad token is named (with ``where``, e.g. ``"the middle"``)."""
    try:
        return thirteen.parse_cards(text)
    except ThirteenError as exc:
        raise Mistake(f"{where}: {exc}" if where else str(exc)) from None


def _check_held(cards: Sequence[Card], hand: Sequence[Card]) -> None:
    """Every card is in the hand, and none is used more often than the hand holds it."""
    held = Counter(hand)
    used: Counter[Card] = Counter()
    for card in cards:
        used[card] += 1
        if held[card] == 0:
            raise Mistake(f"{card} is not in your hand")
        if used[card] > held[card]:
            times = "once" if held[card] == 1 else f"{held[card]} times"
            raise Mistake(f"{card} is used {used[card]} times, but you hold it {times}")


def read_lanes(text: str, hand: Sequence[Card], rules: RuleSet) -> Arrangement:
    """The arrangement typed as ``front | middle | back`` from the 13 cards of ``hand``.

    Raises:
        Mistake: not three lanes; a bad card (named, with its lane); a lane with the wrong
            number of cards ("the middle needs 5 cards, you gave 4"); a card not in the
            hand or used twice. A fouled arrangement is returned: the caller decides.
    """
    parts = text.split("|")
    if len(parts) != 3:
        raise Mistake(
            f"type three lanes separated by '|': front | middle | back (you gave {len(parts)})"
        )
    lanes: List[List[Card]] = []
    for lane, part in zip(LANES, parts):
        cards = read_cards(part, f"the {lane}")
        size = _LANE_SIZES[lane]
        if len(cards) != size:
            raise Mistake(f"the {lane} needs {size} cards, you gave {len(cards)}")
        lanes.append(cards)
    _check_held([c for lane_cards in lanes for c in lane_cards], hand)
    return Arrangement(lanes[0], lanes[1], lanes[2], rules=rules)


class Person:
    """The person playing one seat, through ``screen`` (prompts) and standard input.

    Args:
        screen: where prompts, the hand and the hints are shown.
        players: the table size (for the hints' expected units).
        seat: the person's seat, shown with the hand.
    """

    def __init__(self, screen: Screen, players: int, seat: int = 0) -> None:
        self.screen = screen
        self.players = players
        self.seat = seat

    def _ask(self, prompt: str) -> Optional[str]:
        """One line of input, stripped; ``None`` when the input has ended."""
        try:
            return self.screen.console.input(Text(prompt, style="bold") + Text(" "))
        except EOFError:
            self.screen.print("No more input: the engine plays for you.")
            return None

    def keep(self, dealt: Sequence[Card], rules: RuleSet, banker: bool = False) -> Tuple[Card, ...]:
        """The 13 cards the person keeps of the ``rules.dealt`` dealt (多三张)."""
        extra = len(dealt) - 13
        suggestion = thirteen.solve(list(dealt), rules, players=self.players, banker=banker)
        aside = list((Counter(dealt) - Counter(suggestion.kept)).elements())
        screen = self.screen
        screen.print(
            Text(f"You (seat {self.seat}) are dealt {len(dealt)} cards (多三张): ", style="bold")
            + screen.hand(dealt)
        )
        screen.print(
            Text(f"Set {extra} aside and keep 13. The engine would set aside ")
            + screen.hand(aside)
            + Text(".")
        )
        while True:
            line = self._ask(f"The {extra} cards to set aside (Enter: the engine's choice):")
            if line is None or not line.strip():
                return suggestion.kept
            try:
                cards = read_cards(line)
                if len(cards) != extra:
                    raise Mistake(f"set aside {extra} cards, you gave {len(cards)}")
                _check_held(cards, dealt)
            except Mistake as exc:
                screen.print(Text(f"{exc}.", style="red"))
                continue
            return tuple((Counter(dealt) - Counter(cards)).elements())

    def arrange(self, hand: Sequence[Card], rules: RuleSet, banker: bool = False) -> Submission:
        """The person's arrangement (or special declaration, 报到) of their 13 cards."""
        screen = self.screen
        hints = thirteen.hints(list(hand), rules, players=self.players, n=5, banker=banker)
        screen.print(Text(f"Your hand (seat {self.seat}): ", style="bold") + screen.hand(hand))
        table = screen.table("#", *LANES, "units", title="Hints (牌型提示)", numeric=("#", "units"))
        for number, hint in enumerate(hints, 1):
            cells = screen.play_cells(hint.arrangement, hint.special, rules)
            table.add_row(str(number), *cells, signed(hint.expected, 2))
        screen.show(table)
        while True:
            line = self._ask("A hint's number, or your lanes as front | middle | back:")
            if line is None:
                return self._submission(hints[0], hand)
            line = line.strip()
            if not line:
                continue
            if line.isdigit():
                if 1 <= int(line) <= len(hints):
                    return self._submission(hints[int(line) - 1], hand)
                screen.print(Text(f"There is no hint {line}: 1 to {len(hints)}.", style="red"))
                continue
            try:
                arrangement = read_lanes(line, hand, rules)
            except (Mistake, ThirteenError) as exc:
                screen.print(Text(f"{exc}.", style="red"))
                continue
            reason = foul_reason(arrangement, rules)
            if reason is None:
                return arrangement
            screen.print(Text(f"That is fouled (相公): {reason}; front ≤ middle ≤ back.", style="red"))
            if rules.foul == "reject":
                continue
            answer = self._ask("Play it fouled, losing every lane? [y/N]")
            if answer is not None and answer.strip().lower() in ("y", "yes"):
                return arrangement

    @staticmethod
    def _submission(hint: thirteen.Hint, hand: Sequence[Card]) -> Submission:
        if hint.arrangement is not None:
            return hint.arrangement
        assert hint.special is not None
        return Declaration(list(hand), hint.special.key)
