"""Terminal output shared by every subcommand, on ``rich``.

One :class:`Screen` per output stream decides two things once: colour (on a terminal,
unless ``--no-color`` or the ``NO_COLOR`` environment variable) and suit glyphs (``A♠``
on a terminal that takes UTF-8, ``As`` when piped). Every card the command prints goes
through :meth:`Screen.cards`, so all sections agree. Columns are laid out by ``rich``
tables, which measure the text as it is shown (escape codes take no room, a Chinese
character two cells), so they line up with and without colour.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Iterable, List, Mapping, Optional, Sequence, TextIO

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from thirteen._core import Arrangement, Card, HandValue, SpecialHand
from thirteen.rules import RuleSet

__all__ = [
    "LANES",
    "Screen",
    "category_name",
    "foul_reason",
    "lane_name",
    "print_json",
    "seat_name",
    "signed",
]

#: The lanes in the order every section shows them (RULES.md 2).
LANES = ("front", "middle", "back")


def print_json(data: Any) -> None:
    """Writes ``data`` as indented JSON to standard output: the only thing a ``--json``
    command prints there."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")
    sys.stdout.flush()


def category_name(key: str) -> str:
    """``"full_house"`` → ``"full house"``."""
    return key.replace("_", " ")


def lane_name(value: HandValue) -> str:
    """What a lane plays, in a few words: the category of a middle or back
    (``"full house"``); for a front, its rank too (``"pair of aces"``, ``"king high"``,
    ``"three sevens"``, 冲三)."""
    key = value.category.key
    if value.size == 5:
        return category_name(key)
    # str(value) reads "one pair, aces" / "high card, king, ..." / "three of a kind, sevens".
    ranks = str(value).split(", ")[1:]
    first = ranks[0] if ranks else ""
    if key == "one_pair":
        return f"pair of {first}"
    if key == "three_of_a_kind":
        return f"three {first}"
    return f"{first} high"


def foul_reason(arrangement: Arrangement, rules: Optional[RuleSet]) -> Optional[str]:
    """Why an arrangement is fouled (相公), naming the lanes and their values
    (``"the front (one pair, aces) beats the middle (one pair, kings)"``); ``None`` when
    it is not fouled."""
    front, middle, back = arrangement.values(rules)
    for (low, low_value), (high, high_value) in (
        (("front", front), ("middle", middle)),
        (("middle", middle), ("back", back)),
    ):
        if low_value > high_value:
            on = " on the kickers" if str(low_value) == str(high_value) else ""
            return f"the {low} ({low_value}) beats the {high} ({high_value}){on}"
    return None


def signed(n: float, digits: int = 0) -> Text:
    """A signed amount, green when positive and red when negative."""
    text = f"{n:+.{digits}f}" if digits else f"{int(n):+d}"
    return Text(text, style="green" if n > 0 else "red" if n < 0 else "")


def seat_name(seat: int, you: Optional[int] = None) -> str:
    """``"seat 2"``, or ``"seat 0 (you)"`` for the person playing."""
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


class Screen:
    """One output stream of the command: a ``rich`` console and the card style.

    Args:
        console: the console to draw on (tests pass a recording console).
        glyphs: show suits as ``♠♥♣♦``; default: when the console is a terminal that
            takes UTF-8.
    """

    def __init__(self, console: Console, glyphs: Optional[bool] = None) -> None:
        self.console = console
        if glyphs is None:
            glyphs = console.is_terminal and console.encoding.lower().startswith("utf")
        self.glyphs = glyphs

    @classmethod
    def on(cls, stream: TextIO, *, color: bool = True) -> "Screen":
        """A screen on ``stream`` (``sys.stdout`` or ``sys.stderr``); ``color=False`` for
        ``--no-color``."""
        console = Console(
            file=stream,
            no_color=True if not color else None,
            highlight=False,
            emoji=False,
            markup=False,
        )
        return cls(console)

    # -- cards

    def card(self, card: Card) -> Text:
        """One card: ``A♠`` (red for ♥ ♦) or ``As``."""
        text = card.glyph if self.glyphs else str(card)
        return Text(text, style="red" if card.suit.char in "hd" else "")

    def cards(self, cards: Iterable[Card]) -> Text:
        """Cards separated by spaces, in the order given."""
        return Text(" ").join(self.card(c) for c in cards)

    def hand(self, cards: Iterable[Card]) -> Text:
        """A hand sorted for reading: highest rank first, then suit ♠ ♥ ♣ ♦."""
        return self.cards(sorted(cards, reverse=True))

    def play_cells(
        self,
        arrangement: Optional[Arrangement],
        special: Optional[SpecialHand],
        rules: Optional[RuleSet],
    ) -> List[Any]:
        """Three table cells for a play, front → middle → back: each lane's cards over
        what it plays; for a declared special (报到), its name and units in the first."""
        if arrangement is None:
            assert special is not None
            return [f"declare {category_name(special.key)}\n报到, {special.units} units", "", ""]
        return [
            self.cards(cards) + Text("\n" + lane_name(value), style="dim")
            for cards, value in zip(arrangement.lanes, arrangement.values(rules))
        ]

    # -- layout

    def print(self, *items: Any, style: Optional[str] = None) -> None:
        """Prints renderables or text on one line."""
        self.console.print(*items, style=style)

    def line(self) -> None:
        """An empty line."""
        self.console.print()

    def heading(self, text: str) -> None:
        """A section heading, in bold."""
        self.console.print(Text(text, style="bold"))

    def table(self, *columns: str, title: Optional[str] = None, numeric: Sequence[str] = ()) -> Table:
        """A table with these column headers (``numeric`` ones right-aligned)."""
        table = Table(
            *columns,
            title=title,
            title_justify="left",
            title_style="bold",
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            header_style="bold",
        )
        for column in table.columns:
            if column.header in numeric:
                column.justify = "right"
        return table

    def show(self, renderable: RenderableType) -> None:
        """Prints a table or any other renderable."""
        self.console.print(renderable)

    def pair_table(self, pairs: Sequence[Mapping[str, Any]], you: Optional[int] = None) -> Table:
        """The pair-by-pair results of a settlement (``Settlement.to_dict()["pairs"]``):
        each lane's winner and units, the scoring steps, the total from the first seat's
        side (RULES.md 5)."""
        table = self.table("pair", *LANES, "scoring", "total", numeric=("total",))
        for pair in pairs:
            a, b = pair["seats"]
            cells: List[Any] = [f"{seat_name(a, you)} v {seat_name(b, you)}"]
            lanes = {lane["lane"]: lane for lane in pair["lanes"]}
            for name in LANES:
                lane = lanes.get(name)
                if lane is None:
                    cells.append("–")
                elif lane["winner"] is None:
                    cells.append("draw")
                else:
                    cells.append(f"seat {lane['winner']} +{lane['units']}")
            steps = [f"{category_name(k)} {v:+d}" for k, v in pair["steps"].items() if v]
            cells.append(", ".join(steps) or "nothing")
            cells.append(signed(pair["total"]))
            table.add_row(*cells)
        return table

    def totals_table(
        self,
        totals: Sequence[int],
        money: Optional[Sequence[int]] = None,
        you: Optional[int] = None,
    ) -> Table:
        """Units per seat (and money, after the rake, when given)."""
        columns = ["seat", "units"] + (["money"] if money is not None else [])
        table = self.table(*columns, numeric=("units", "money"))
        for seat, units in enumerate(totals):
            row: List[Any] = [seat_name(seat, you), signed(units)]
            if money is not None:
                row.append(signed(money[seat]))
            table.add_row(*row)
        return table

    def events(self, settlement: Mapping[str, Any], you: Optional[int] = None) -> None:
        """The fouls (相公), scoops (打枪) and home runs (全垒打) of a settlement, one line
        each when there are any."""
        if settlement["fouled"]:
            seats = ", ".join(seat_name(p, you) for p in settlement["fouled"])
            self.print(f"Fouled (相公): {seats}")
        if settlement["scoops"]:
            sweeps = ", ".join(
                f"{seat_name(w, you)} scoops {seat_name(l, you)}" for w, l in settlement["scoops"]
            )
            self.print(f"Scoops (打枪): {sweeps}")
        if settlement["home_runs"]:
            seats = ", ".join(seat_name(p, you) for p in settlement["home_runs"])
            self.print(f"Home run (全垒打): {seats}")
