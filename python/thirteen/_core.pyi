"""Type stubs of the compiled core ``thirteen._core`` (kept in step with rust/thirteen-py and
checked by ``python -m mypy.stubtest thirteen._core`` in ``make test``)."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Literal, Mapping, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

from thirteen.enums import Category as Category
from thirteen.enums import Rank as Rank
from thirteen.enums import Suit as Suit

__all__ = [
    "__version__",
    "Rank",
    "Suit",
    "Category",
    "Card",
    "parse_cards",
    "format_cards",
    "deck",
    "validate_hand",
    "Rules",
    "HandValue",
    "evaluate",
    "evaluate_batch",
    "compare_lanes",
    "Arrangement",
    "is_foul",
    "SpecialHand",
    "find_special",
    "held_specials",
    "compare_specials",
    "Declaration",
    "Settlement",
    "settle",
    "settle_batch",
    "settle_round",
    "rule_options",
    "escape_payments",
    "money",
    "LaneTables",
    "count_splits",
    "splits",
    "build_tables",
    "train",
    "iteration_counts",
    "_ev_scan",
    "_explain",
    "_solve",
    "_gift",
    "_surrender_expected",
    "_complete",
    "solve_batch",
    "Deal",
    "deal",
    "swap_cards",
    "_restore",
]

__version__: str

_CardsLike = Union[str, Iterable[Union["Card", str]]]
_RulesLike = Any  # thirteen.RuleSet, Rules or None
_Reduced = Tuple[Any, Tuple[Any, ...]]

@final
class Card:
    def __new__(cls, text: str) -> Card: ...
    @staticmethod
    def parse(text: str) -> Card: ...
    @staticmethod
    def from_code(code: int) -> Card: ...
    @property
    def rank(self) -> Rank: ...
    @property
    def suit(self) -> Suit: ...
    @property
    def code(self) -> int: ...
    @property
    def glyph(self) -> str: ...
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> _Reduced: ...

@final
class Rules:
    def __new__(cls, json: str) -> Rules: ...
    @property
    def name(self) -> str: ...
    @property
    def canonical(self) -> str: ...
    def check_players(self, players: int) -> int: ...
    def __reduce__(self) -> _Reduced: ...

@final
class HandValue:
    @staticmethod
    def from_raw(value: int, size: int = 5) -> HandValue: ...
    @property
    def category(self) -> Category: ...
    @property
    def ranks(self) -> Tuple[Rank, ...]: ...
    @property
    def high(self) -> Rank: ...
    @property
    def size(self) -> int: ...
    @property
    def value(self) -> int: ...
    def __lt__(self, other: HandValue, /) -> bool: ...
    def __le__(self, other: HandValue, /) -> bool: ...
    def __gt__(self, other: HandValue, /) -> bool: ...
    def __ge__(self, other: HandValue, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> _Reduced: ...

@final
class Arrangement:
    def __new__(
        cls, front: _CardsLike, middle: _CardsLike, back: _CardsLike, rules: _RulesLike = None
    ) -> Arrangement: ...
    @staticmethod
    def parse(text: str, rules: _RulesLike = None) -> Arrangement: ...
    @property
    def front(self) -> Tuple[Card, ...]: ...
    @property
    def middle(self) -> Tuple[Card, ...]: ...
    @property
    def back(self) -> Tuple[Card, ...]: ...
    @property
    def cards(self) -> Tuple[Card, ...]: ...
    @property
    def lanes(self) -> Tuple[Tuple[Card, ...], Tuple[Card, ...], Tuple[Card, ...]]: ...
    def values(self, rules: _RulesLike = None) -> Tuple[HandValue, HandValue, HandValue]: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> _Reduced: ...

@final
class SpecialHand:
    @property
    def key(self) -> str: ...
    @property
    def units(self) -> int: ...
    @property
    def tier(self) -> int: ...
    @property
    def arrangement(self) -> Optional[Arrangement]: ...
    def __reduce__(self) -> _Reduced: ...

@final
class Declaration:
    def __new__(cls, cards: _CardsLike, special: Optional[str] = None) -> Declaration: ...
    @property
    def cards(self) -> Tuple[Card, ...]: ...
    @property
    def special(self) -> Optional[str]: ...
    def __reduce__(self) -> _Reduced: ...

@final
class Settlement:
    @property
    def totals(self) -> list[int]: ...
    @property
    def fouled(self) -> list[int]: ...
    @property
    def surrendered(self) -> list[int]: ...
    @property
    def scoops(self) -> list[Tuple[int, int]]: ...
    @property
    def home_runs(self) -> list[int]: ...
    @property
    def specials(self) -> list[Optional[SpecialHand]]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __reduce__(self) -> _Reduced: ...

def parse_cards(text: str) -> list[Card]: ...
def format_cards(cards: _CardsLike, glyphs: bool = False) -> str: ...
def deck(rules: _RulesLike = None) -> list[Card]: ...
def validate_hand(cards: _CardsLike, rules: _RulesLike = None, size: int = 13) -> None: ...
def evaluate(cards: _CardsLike, rules: _RulesLike = None) -> HandValue: ...
def evaluate_batch(
    hands: npt.NDArray[np.uint8], rules: _RulesLike = None
) -> npt.NDArray[np.uint32]: ...
def compare_lanes(a: _CardsLike, b: _CardsLike, rules: _RulesLike = None) -> int: ...
def is_foul(arrangement: Arrangement, rules: _RulesLike = None) -> bool: ...
def find_special(cards: _CardsLike, rules: _RulesLike = None) -> Optional[SpecialHand]: ...
def held_specials(cards: _CardsLike, rules: _RulesLike = None) -> list[str]: ...
def compare_specials(a: SpecialHand, b: SpecialHand) -> int: ...
def settle(
    submissions: Iterable[Union[Arrangement, Declaration]],
    rules: _RulesLike = None,
    *,
    banker: int = 0,
    stakes: Optional[Sequence[int]] = None,
    surrendered: Optional[Sequence[int]] = None,
) -> Settlement: ...
def settle_batch(
    tables: npt.NDArray[np.uint8], rules: _RulesLike = None, *, banker: int = 0
) -> npt.NDArray[np.int64]: ...
def rule_options() -> str: ...
def settle_round(
    submissions: Iterable[Optional[Union[Arrangement, Declaration]]],
    rules: _RulesLike = None,
    *,
    escaped: Sequence[int] = (),
    banker: int = 0,
    stakes: Optional[Sequence[int]] = None,
    surrendered: Optional[Sequence[int]] = None,
) -> Tuple[Optional[Settlement], list[int], list[int]]: ...
def escape_payments(
    rules: _RulesLike, leaver: int, results: Sequence[Optional[int]]
) -> list[int]: ...
def money(
    units: Sequence[int],
    stake: int,
    rake: Optional[Tuple[Union[int, str, float], Optional[int]]] = None,
) -> list[int]: ...

@final
class LaneTables:
    @staticmethod
    def from_counts(
        rules: _RulesLike,
        front: Sequence[Tuple[int, int]],
        middle: Sequence[Tuple[int, int]],
        back: Sequence[Tuple[int, int]],
        classes: Optional[Sequence[Mapping[str, Sequence[Tuple[int, int]]]]] = None,
        card_removal: bool = True,
    ) -> LaneTables: ...
    @staticmethod
    def from_packed(rules: _RulesLike, packed: bytes, card_removal: Optional[bool] = None) -> LaneTables: ...
    def counts(self) -> dict[str, Any]: ...
    @property
    def samples(self) -> int: ...
    @property
    def card_removal(self) -> bool: ...
    def with_card_removal(self, on: bool) -> LaneTables: ...
    def __reduce__(self) -> _Reduced: ...

_ChoiceTuple = Tuple[Optional[Arrangement], Optional[SpecialHand], float]

def count_splits(
    cards: _CardsLike, rules: _RulesLike = None, *, legal: bool = False, pareto: bool = False
) -> int: ...
def splits(
    cards: _CardsLike, rules: _RulesLike = None, *, legal: bool = False, pareto: bool = False
) -> list[Arrangement]: ...
def build_tables(
    rules: _RulesLike = None,
    *,
    players: int = 4,
    deals: int = 20000,
    iterations: int = 3,
    seed: int = 0,
) -> LaneTables: ...
def train(
    rules: _RulesLike,
    *,
    players: int,
    deals: int,
    iterations: int,
    tolerance: float,
    seed: int,
    warm: Optional[LaneTables] = None,
    report: Optional[Callable[[int, int, float, float], Any]] = None,
    count: Optional[Callable[[int, bool, Any], Any]] = None,
    packed: bool = False,
) -> LaneTables: ...
@overload
def iteration_counts(
    rules: _RulesLike,
    tables: Optional[LaneTables],
    *,
    players: int,
    seed: int,
    iteration: int,
    greedy: bool,
    start: int,
    stop: int,
    packed: Literal[False] = False,
) -> dict[str, Any]: ...
@overload
def iteration_counts(
    rules: _RulesLike,
    tables: Optional[LaneTables],
    *,
    players: int,
    seed: int,
    iteration: int,
    greedy: bool,
    start: int,
    stop: int,
    packed: Literal[True],
) -> bytes: ...
def _ev_scan(
    cards: _CardsLike,
    rules: _RulesLike,
    tables: LaneTables,
    *,
    players: int = 4,
    banker: bool = False,
) -> Tuple[float, float, int, int, int]: ...
def _explain(
    arrangement: Arrangement,
    rules: _RulesLike,
    tables: LaneTables,
    *,
    players: int = 4,
    banker: bool = False,
) -> Tuple[list[Tuple[float, float]], float, float, float]: ...
def _solve(
    cards: _CardsLike,
    rules: _RulesLike,
    tables: LaneTables,
    players: int = 4,
    banker: bool = False,
    strategy: str = "ev",
    samples: int = 1000,
    seed: int = 0,
    top: int = 1,
    distinct: bool = False,
    labels: bool = False,
) -> Tuple[Tuple[Card, ...], list[_ChoiceTuple]]: ...
def _gift(
    cards: _CardsLike,
    rules: _RulesLike,
    tables: LaneTables,
    players: int = 4,
    banker: bool = False,
    seed: int = 0,
    top: int = 1,
    model: Optional[Tuple[Sequence[int], Sequence[int], Sequence[int]]] = None,
    search: Optional[Tuple[int, int, int, int]] = None,
) -> list[Tuple[Tuple[Card, ...], float]]: ...
def _surrender_expected(
    rules: _RulesLike, players: int = 4, banker: bool = False
) -> Optional[float]: ...
def _complete(
    cards: _CardsLike,
    rules: _RulesLike,
    tables: LaneTables,
    *,
    front: _CardsLike,
    middle: _CardsLike,
    back: _CardsLike,
    players: int = 4,
    banker: bool = False,
    limit: int = 20,
) -> list[_ChoiceTuple]: ...
def solve_batch(
    hands: npt.NDArray[np.uint8],
    rules: _RulesLike,
    tables: LaneTables,
    *,
    players: int = 4,
    banker: bool = False,
    strategy: str = "ev",
) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]: ...

@final
class Deal:
    @property
    def hands(self) -> list[Tuple[Card, ...]]: ...
    @property
    def deck(self) -> Tuple[Card, ...]: ...
    @property
    def cut_card(self) -> Optional[Card]: ...
    @property
    def cut_start(self) -> Optional[int]: ...
    @property
    def first(self) -> int: ...
    @property
    def seed(self) -> Optional[int]: ...
    def __reduce__(self) -> _Reduced: ...

def deal(rules: _RulesLike = None, players: int = 4, seed: Optional[int] = None) -> Deal: ...
def swap_cards(
    hands: Sequence[_CardsLike],
    given: Sequence[_CardsLike],
    rules: _RulesLike = None,
    seed: Optional[int] = None,
) -> list[Tuple[Card, ...]]: ...
def _restore(kind: str, json: str) -> Any: ...
