"""The arrangement engine for servers and players: auto-arrange (代打), hints (牌型提示) and
completions, on top of the Rust core.

Strategies (``strategy=``):

* ``"ev"`` (default): the split (or special declaration) with the highest expected units at a
  table of ``players``, from per-lane win-probability tables built by self-play
  (:func:`lane_tables`) and the rule set's scoring: lane values, scoop (打枪), home run
  (全垒打), majority bonus; a held special (报到) is declared when its units beat the best
  split. The events that need all three lanes (a scoop won or lost, a home run) are priced
  over 16 classes of the opponent's arrangement (its front and middle): the lanes of one
  hand are not independent, a strong front is often bought with a weak middle. An
  opponent's home run that takes the seat in is priced from the chance that the opponent
  scoops this seat and, at its class's scoop rate, every other seat.
* ``"mc"``: Monte Carlo over the unseen cards: ``samples`` deals of the opponents' hands, each
  opponent arranged by ``ev``; the best ``ev`` candidates are settled exactly under the rules
  against every sample (in parallel, seeded); the best mean wins.
* ``"greedy"``: the strongest back, then the strongest middle, the rest in front (a baseline).

The search of ``ev`` is exact: no split is skipped unless it provably cannot beat the best
found (the model's score never falls as a lane's value rises when lane values never fall as
the category rises; where they fall, the bounds price each lane at the most any category up
to its own is worth).

Lane tables ship with the package for every preset (``thirteen/tables/<preset>.json.gz``, made
by ``thirteen train``) and are chosen by what changes play (:mod:`thirteen.table_store`).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence, Tuple, Union

from thirteen import _core
from thirteen._core import Arrangement, Card, Declaration, LaneTables, SpecialHand
from thirteen.errors import LimitError, ThirteenError
from thirteen.rules import RuleSet
from thirteen.table_store import cached_lane_tables, lane_tables

__all__ = [
    "Solution",
    "Hint",
    "lane_tables",
    "solve",
    "hints",
    "complete",
    "solve_batch",
    "label",
]

CardsLike = Union[str, Sequence[Any]]

#: Most plays ``top``/``n``/``limit`` may ask for, and most ``mc`` samples.
MAX_TOP = 1000
MAX_SAMPLES = 10_000_000


MAX_SEED = 2**64 - 1


def _int(name: str, value: Any) -> int:
    """``value`` as an int: an ``int`` or a numpy integer (anything with ``__index__``);
    TypeError naming ``name`` for anything else, ``bool`` included."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None


def _count(name: str, value: Any, most: int, least: int = 1) -> int:
    """``value`` as an int from ``least`` to ``most``: TypeError for a non-integer (bool
    included), LimitError naming ``name`` outside the range."""
    n = _int(name, value)
    if not least <= n <= most:
        raise LimitError(
            f"{name} must be from {least} to {most}, got {n}",
            key=name, value=str(n), minimum=least, maximum=most,
        )
    return n


def _rules(rules: Optional[RuleSet]) -> RuleSet:
    if rules is None:
        return RuleSet.default()
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a thirteen.RuleSet or None, not {type(rules).__name__}")
    return rules


@dataclass(frozen=True)
class Solution:
    """A solved hand.

    Attributes:
        arrangement: the split to play, or ``None`` when the special is declared.
        special: the special hand declared (报到), or ``None``.
        expected: expected units (注) against the table (``nan`` for ``"greedy"``).
        kept: the 13 cards kept (differs from the dealt cards only with 16 dealt, 多三张).
        strategy: ``"ev"``, ``"mc"`` or ``"greedy"``.
        alternatives: the runners-up (best first), when asked for with ``top``.
        surrender_expected: under rules that allow surrender (Western, RULES.md 5 step 1),
            the expected units of surrendering: ``-surrender.units`` for each opponent the
            seat meets, the opponents taken as not surrendering (docs/surrender.md);
            ``None`` when the rules do not allow it.
    """

    arrangement: Optional[Arrangement]
    special: Optional[SpecialHand]
    expected: float
    kept: Tuple[Card, ...]
    strategy: str
    alternatives: Tuple["Solution", ...] = field(default=())
    surrender_expected: Optional[float] = None

    @property
    def declares(self) -> bool:
        """Whether the solution declares a special hand."""
        return self.arrangement is None

    @property
    def surrenders(self) -> bool:
        """Whether the seat should surrender (认输): surrendering loses strictly less than
        the play (``surrender_expected > expected``; never for ``"greedy"``, whose play has
        no expectation). :meth:`submission` is still the best play."""
        s = self.surrender_expected
        return s is not None and s > self.expected

    def submission(self) -> Union[Arrangement, Declaration]:
        """What to submit to :func:`thirteen.settle`: the arrangement, or a
        :class:`thirteen.Declaration` of the special."""
        if self.arrangement is not None:
            return self.arrangement
        assert self.special is not None
        return _core.Declaration(list(self.kept), self.special.key)


_new = object.__new__


def _solution(
    arrangement: Optional[Arrangement],
    special: Optional[SpecialHand],
    expected: float,
    kept: Tuple[Card, ...],
    strategy: str,
    alternatives: Tuple[Solution, ...],
    surrender: Optional[float] = None,
) -> Solution:
    """A :class:`Solution` of fields already checked by the core, set straight into its
    ``__dict__`` (what the frozen dataclass's ``__init__`` stores, without a guarded
    ``__setattr__`` per field: ``solve`` returns one per call)."""
    out: Solution = _new(Solution)
    # Item by item: a keyword ``update`` builds a dict to copy (measured 290 -> 220 ns).
    fields = out.__dict__
    fields["arrangement"] = arrangement
    fields["special"] = special
    fields["expected"] = expected
    fields["kept"] = kept
    fields["strategy"] = strategy
    fields["alternatives"] = alternatives
    fields["surrender_expected"] = surrender
    return out


@dataclass(frozen=True)
class Hint:
    """One hint (牌型提示): an arrangement, a special declaration, or (under rules that allow
    it) surrendering, labelled by what it plays (``"pair of queens / two pair / flush"``,
    front / middle / back; ``"surrender: pay 3 units to each"``), with its expected units.
    A surrender hint has no arrangement and no special, and ``surrender`` set."""

    arrangement: Optional[Arrangement]
    special: Optional[SpecialHand]
    label: str
    expected: float
    surrender: bool = False


def label(arrangement: Arrangement, rules: Optional[RuleSet] = None) -> str:
    """What an arrangement plays, front / middle / back: ``"pair of queens / two pair /
    flush"`` (the 5-card lanes by category, the front with its rank)."""
    front, middle, back = arrangement.values(rules)
    v = front
    rank_name = str(v).split(", ", 1)[1] if ", " in str(v) else ""
    if v.category.key == "high_card":
        front_text = f"{rank_name} high"
    elif v.category.key == "one_pair":
        front_text = f"pair of {rank_name}"
    else:
        front_text = f"three {rank_name}"
    return f"{front_text} / {middle.category.key.replace('_', ' ')} / {back.category.key.replace('_', ' ')}"


def _context(rules: RuleSet, players: int, banker: Optional[bool]) -> Tuple[int, bool]:
    """``players`` as an int, and whether the seat solved for is the banker's; checks
    ``players`` (an int, numpy's included, that the rules allow) and ``banker`` (a bool)."""
    if type(players) is not int:
        players = _int("players", players)
    if banker is not None and not isinstance(banker, bool):
        raise TypeError(f"banker must be a bool, not {type(banker).__name__}")
    rules.check_players(players)
    return players, bool(banker) if rules.mode == "banker" else False


def solve(
    hand: CardsLike,
    rules: Optional[RuleSet] = None,
    *,
    players: int = 4,
    strategy: str = "ev",
    banker: bool = False,
    samples: int = 1000,
    seed: int = 0,
    top: int = 1,
    tables: Optional[LaneTables] = None,
) -> Solution:
    """Auto-arranges a hand (代打) for a table of ``players`` under ``rules``.

    Args:
        hand: the dealt cards (13; ``rules.dealt`` = 16 in 多三张, the best 13 are kept), as a
            string or a sequence of :class:`Card`. With 16 and a horse card (马牌, RULES.md
            §5 step 8) among them, the 13 kept hold it when its doubling pays (README);
            ``expected`` is always before that doubling.
        rules: the :class:`RuleSet` (``None``: defaults).
        players: table size, 2 to 4 (as the rules allow).
        strategy: ``"ev"`` (default), ``"mc"`` or ``"greedy"`` (see the module docs).
        banker: in banker mode, solve for the banker's seat.
        samples: Monte Carlo samples for ``"mc"``; seed: its random seed (0 to 2**64 − 1).
        top: how many plays to rank: ``alternatives`` holds the ``top − 1`` runners-up,
            best first, each differing from the better ones in some lane's value
            (``"ev"``, ``"mc"``).
        tables: lane tables to use instead of :func:`lane_tables` (``rules``).

    Returns:
        A :class:`Solution`: never a fouled arrangement; a special is declared when that
        scores better. Under rules that allow surrender it also holds what surrendering is
        worth (``surrender_expected``) and whether it loses less (``surrenders``).

    Raises:
        CountError: a hand of the wrong size (also DuplicateCardError, CardError: bad cards).
        PlayerCountError: a table size the rules do not allow.
        LimitError: ``top`` outside 1 to 1,000, ``samples`` outside 1 to 10,000,000 or
            ``seed`` outside 0 to 2**64 − 1.
        ThirteenError: a strategy other than ``"ev"``, ``"mc"``, ``"greedy"``.
        TypeError: ``rules`` not a RuleSet, a count (``players``, ``top``, ``samples``,
            ``seed``) not an int (numpy integers are), ``banker`` not a bool.
    """
    if type(rules) is not RuleSet:
        rules = _rules(rules)
    # The common call (an int table size the rules allow, a bool) checked inline.
    if type(players) is int and type(banker) is bool and players in rules.players:
        as_banker = banker and rules.mode == "banker"
    else:
        players, as_banker = _context(rules, players, banker)
    if type(top) is not int or not 1 <= top <= MAX_TOP:
        top = _count("top", top, MAX_TOP)
    if type(samples) is not int or not 1 <= samples <= MAX_SAMPLES:
        samples = _count("samples", samples, MAX_SAMPLES)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        seed = _count("seed", seed, MAX_SEED, least=0)
    if strategy not in ("ev", "mc", "greedy"):
        raise ThirteenError(f"strategy must be 'ev', 'mc' or 'greedy', got {strategy!r}")
    if tables is None:
        tables = cached_lane_tables(rules, players)
    # Positional: the binding's arguments in order (keywords cost a lookup each).
    kept, choices = _core._solve(
        hand, rules, tables, players, as_banker, strategy, samples, seed, top, top > 1
    )
    a, s, e = choices[0]
    gone = (
        _core._surrender_expected(rules, players, as_banker) if rules.surrender.allowed else None
    )
    alternatives = (
        tuple(_solution(a2, s2, e2, kept, strategy, (), gone) for a2, s2, e2 in choices[1:top])
        if top > 1
        else ()
    )
    return _solution(a, s, e, kept, strategy, alternatives, gone)


def hints(
    hand: CardsLike,
    rules: Optional[RuleSet] = None,
    *,
    players: int = 4,
    n: int = 5,
    banker: bool = False,
    tables: Optional[LaneTables] = None,
) -> List[Hint]:
    """A short ranked list of good, distinct plays for a hand (牌型提示): the best play of
    each kind, for the ``n`` kinds whose best plays are worth most, by expected units (each
    kind is a :func:`label`: the front's category and rank, the middle's and the back's
    categories); a held special's declaration among them where it ranks. Under rules that
    allow surrender (RULES.md 5 step 1) surrendering is listed too where it ranks (a
    :class:`Hint` with ``surrender`` set, priced as :attr:`Solution.surrender_expected`),
    besides the ``n`` plays, when it loses less than one of them. Exact, as
    :func:`solve`: one pruned search that keeps one play per kind (about 0.05–0.07 ms at
    the median and at most about 0.4 ms on a 13-card hand, README). ``tables`` as in
    :func:`solve`. Raises as :func:`solve`."""
    rules = _rules(rules)
    players, as_banker = _context(rules, players, banker)
    n = _count("n", n, MAX_TOP)
    if tables is None:
        tables = lane_tables(rules, players)
    # The best play of each label, best first: the core's search keeps one split per label
    # (its label is the one `label` writes), so `n` of them are asked for; a held special's
    # declaration is listed among them where it ranks.
    _, choices = _core._solve(
        hand, rules, tables, players=players, banker=as_banker, strategy="ev", top=n,
        distinct=True, labels=True,
    )
    out = _hints_of(choices, rules)
    if rules.surrender.allowed:
        gone = _core._surrender_expected(rules, players, as_banker)
        assert gone is not None
        at = next((i for i, h in enumerate(out) if h.expected < gone), len(out))
        if at < len(out) or len(out) < n:
            text = f"surrender: pay {rules.surrender.units} units to each"
            out.insert(at, Hint(None, None, text, gone, surrender=True))
    return out


def _hints_of(choices: Sequence[Any], rules: RuleSet) -> List[Hint]:
    """The :class:`Hint` of each ``(arrangement, special, expected)`` choice, in order."""
    out: List[Hint] = []
    for arrangement, special, expected in choices:
        if arrangement is None:
            assert special is not None
            text = f"special: {special.key.replace('_', ' ')} ({special.units} units)"
        else:
            text = label(arrangement, rules)
        out.append(Hint(arrangement, special, text, expected))
    return out


def complete(
    hand: CardsLike,
    rules: Optional[RuleSet] = None,
    *,
    front: CardsLike = (),
    middle: CardsLike = (),
    back: CardsLike = (),
    players: int = 4,
    limit: int = 20,
    banker: bool = False,
    tables: Optional[LaneTables] = None,
) -> List[Hint]:
    """The remaining legal (non-fouled) ways to finish a hand when the player has already
    placed some cards (牌型提示 while arranging): ``front``, ``middle``, ``back`` the cards
    placed in each lane. Best first by expected units, at most ``limit``; empty when no
    legal finish exists.

    ``hand`` is 13 cards, or ``rules.dealt`` (16 under kaixin-extra, 多三张): then each
    finish keeps 13 of them (the placed cards among them), with card removal from all the
    cards dealt as :func:`solve` (RULES.md §1, "Cards and deck"). Each distinct arrangement
    is listed once (a card dealt twice by the 65-card deck makes one arrangement of two
    splits). Finishes are priced before the horse card's doubling (RULES.md §5 step 8), so
    with 16 cards and a horse card the first need not be :func:`solve`'s play, which weighs
    it. On 16 cards a call takes about 0.6 ms at the median, p99 6 ms, worst seen 8 ms
    with 0 to 5 cards placed (``benches/speed.py --sixteen``), longer with a larger
    ``limit`` (about 0.1 s at 10,000 with nothing placed, up to about 0.15 s). On 13 cards,
    the same pruned search: about 0.1 ms at the median with the default ``limit`` and 0 to
    6 cards placed, p99 about 0.3 ms (about 1 ms at ``limit`` 300; every finish, some
    24,000, about 75 ms).

    Raises: CountError (a lane over-full, or a hand of neither 13 nor ``rules.dealt``
    cards), CardNotHeldError (a placed card not in the hand, or placed more often than
    held: ``card`` names it), LimitError (``limit`` above
    10,000 with more than 13 cards: a 16-card hand has some 40 million finishes), and the
    errors of :func:`solve`.
    """
    rules = _rules(rules)
    players, as_banker = _context(rules, players, banker)
    limit = _count("limit", limit, 2**63 - 1)  # only truncates: a limit above the count is "all"
    for name, placed in (("front", front), ("middle", middle), ("back", back)):
        if not isinstance(placed, str) and not hasattr(placed, "__iter__"):
            raise TypeError(f"{name} must be cards (a string or a sequence of Card), not {type(placed).__name__}")
    tables = tables if tables is not None else lane_tables(rules, players)
    choices = _core._complete(hand, rules, tables, front=front, middle=middle, back=back,
                              players=players, banker=as_banker, limit=limit)
    # A completion is always an arrangement, never a declaration.
    return [Hint(a, None, label(a, rules), e) for a, _, e in choices if a is not None]


def solve_batch(
    hands: Any,
    rules: Optional[RuleSet] = None,
    *,
    players: int = 4,
    strategy: str = "ev",
    banker: bool = False,
    tables: Optional[LaneTables] = None,
) -> Tuple[Any, Any]:
    """Solves many hands at once on every core (the GIL released).

    Args:
        hands: numpy ``uint8`` array ``(n, 13)`` (or ``(n, rules.dealt)``) of card codes
            (:attr:`Card.code`).
        strategy: ``"ev"`` or ``"greedy"``.

    Returns:
        ``(arrangements, specials)``: ``uint8 (n, 13)`` codes in front (3), middle (5),
        back (5) order, and ``int8 (n,)`` the declared special's index in
        :data:`thirteen.rules.SPECIAL_KEYS` (−1 when arranged).
    """
    rules = _rules(rules)
    players, as_banker = _context(rules, players, banker)
    tables = tables if tables is not None else lane_tables(rules, players)
    return _core.solve_batch(
        hands, rules, tables, players=players, banker=as_banker, strategy=strategy
    )
