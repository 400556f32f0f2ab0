"""Shuffling, cutting, dealing and swap-three (RULES.md section 7), seeded only.

Written from the specification in the docs of ``rust/thirteen-core/src/deal.rs`` so the
core's seeded deals can be checked independently:

* The generator is ChaCha20 (RFC 8439 quarter round, 20 rounds = 10 double rounds) in the
  layout of ``rand_chacha::ChaCha20Rng``: state words 0-3 the constants "expand 32-byte k",
  4-11 the key (little-endian words), 12-13 a 64-bit block counter (low, high) starting
  at 0, 14-15 a 64-bit stream id (low, high). ``next_u32`` returns the keystream's 32-bit
  words in order (block 0 words 0..15, then block 1, ...). The key of a seed is the seed's
  8 little-endian bytes followed by 24 zero bytes; the deal uses stream 0, swap-three
  stream 1.
* :func:`uniform_below` draws by rejection sampling, :func:`shuffle` is the Fisher-Yates
  walk from the last index down to 1.
* :func:`deal` shuffles the rules' deck (:func:`~thirteen.reference.cards.deck` order),
  draws the cut (position, then the seat counting as 1) when ``rules.cut``, and deals one
  card at a time from the first seat.

The reference has no operating-system randomness: ``seed`` is required.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from thirteen.errors import CountError, RuleSetError, ThirteenError

from ._rules import resolve
from .cards import Card, Rank, as_cards, deck as rules_deck

__all__ = [
    "chacha20_block",
    "ChaCha20Rng",
    "rng_for",
    "swap_rng",
    "uniform_below",
    "shuffle",
    "shuffled_deck",
    "Deal",
    "deal",
    "swap_cards",
]

_MASK32 = 0xFFFFFFFF
_MASK64 = 0xFFFFFFFFFFFFFFFF
# "expand 32-byte k" as four little-endian words (RFC 8439 2.3).
_CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)


def _rotl(v: int, n: int) -> int:
    return ((v << n) | (v >> (32 - n))) & _MASK32


def _quarter_round(x: List[int], a: int, b: int, c: int, d: int) -> None:
    """RFC 8439 2.1 on state words a, b, c, d (in place)."""
    x[a] = (x[a] + x[b]) & _MASK32
    x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & _MASK32
    x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & _MASK32
    x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & _MASK32
    x[b] = _rotl(x[b] ^ x[c], 7)


def chacha20_block(state: Sequence[int]) -> List[int]:
    """The ChaCha20 block function (RFC 8439 2.3): 16 input words to 16 output words.

    Ten double rounds (column rounds, then diagonal rounds), then the input state is
    added word by word (mod 2**32).
    """
    if len(state) != 16:
        raise ValueError(f"a ChaCha state has 16 words, got {len(state)}")
    x = [int(w) & _MASK32 for w in state]
    for _ in range(10):
        _quarter_round(x, 0, 4, 8, 12)
        _quarter_round(x, 1, 5, 9, 13)
        _quarter_round(x, 2, 6, 10, 14)
        _quarter_round(x, 3, 7, 11, 15)
        _quarter_round(x, 0, 5, 10, 15)
        _quarter_round(x, 1, 6, 11, 12)
        _quarter_round(x, 2, 7, 8, 13)
        _quarter_round(x, 3, 4, 9, 14)
    return [(x[i] + (int(state[i]) & _MASK32)) & _MASK32 for i in range(16)]


class ChaCha20Rng:
    """ChaCha20 as a stream of 32-bit words, laid out like ``rand_chacha::ChaCha20Rng``.

    Args:
        key: 32 bytes.
        stream: the 64-bit stream id (state words 14-15).
        counter: the first block's 64-bit counter (state words 12-13), 0 by default.
    """

    def __init__(self, key: bytes, stream: int = 0, counter: int = 0) -> None:
        if len(key) != 32:
            raise ValueError(f"a ChaCha20 key has 32 bytes, got {len(key)}")
        self._key = tuple(int.from_bytes(key[4 * i : 4 * i + 4], "little") for i in range(8))
        self._stream = stream & _MASK64
        self._counter = counter & _MASK64
        self._block: List[int] = []
        self._index = 16  # nothing buffered: the first next_u32 generates block `counter`

    def _state(self) -> List[int]:
        return [
            *_CONSTANTS,
            *self._key,
            self._counter & _MASK32,
            self._counter >> 32,
            self._stream & _MASK32,
            self._stream >> 32,
        ]

    def next_u32(self) -> int:
        """The next 32-bit word of the keystream."""
        if self._index >= 16:
            self._block = chacha20_block(self._state())
            self._counter = (self._counter + 1) & _MASK64
            self._index = 0
        word = self._block[self._index]
        self._index += 1
        return word


def _seed_key(seed: int) -> bytes:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed <= _MASK64:
        raise OverflowError(f"seed {seed} outside 0..2**64-1")
    return seed.to_bytes(8, "little") + bytes(24)


def rng_for(seed: int) -> ChaCha20Rng:
    """The deal generator of ``seed``: key = seed's 8 little-endian bytes + 24 zero bytes, stream 0."""
    return ChaCha20Rng(_seed_key(seed), stream=0)


def swap_rng(seed: int) -> ChaCha20Rng:
    """The swap-three generator of ``seed``: the same key on stream 1."""
    return ChaCha20Rng(_seed_key(seed), stream=1)


def uniform_below(rng: ChaCha20Rng, bound: int) -> int:
    """A uniform integer in ``0..bound`` (``1 <= bound < 2**32``) by rejection sampling.

    ``zone = u32::MAX - (u32::MAX - bound + 1) % bound`` in 32-bit wrapping arithmetic,
    i.e. the largest accepted draw; a draw ``x <= zone`` gives ``x % bound``.
    """
    if not 1 <= bound <= _MASK32:
        raise ValueError(f"bound {bound} outside 1..2**32-1")
    zone = (_MASK32 - ((_MASK32 - bound + 1) & _MASK32) % bound) & _MASK32
    while True:
        x = rng.next_u32()
        if x <= zone:
            return x % bound


def shuffle(cards: List[Any], rng: Any) -> None:
    """Fisher-Yates in place: for ``i`` from ``len - 1`` down to 1, swap ``i`` with
    ``j = uniform_below(rng, i + 1)``."""
    for i in range(len(cards) - 1, 0, -1):
        j = uniform_below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def shuffled_deck(rules: Any = None, seed: int = 0) -> List[Card]:
    """The rules' deck shuffled with the deal generator of ``seed`` (no cut, no deal)."""
    cards = rules_deck(resolve(rules))
    shuffle(cards, rng_for(seed))
    return cards


@dataclass(frozen=True)
class Deal:
    """One round's deal, as ``thirteen.Deal``: per-seat ``hands`` (cards in the order dealt),
    the shuffled ``deck``, the ``cut_card`` and the seat that counted as 1 (``cut_start``)
    when the rules cut, the seat dealt ``first``, and the ``seed``."""

    hands: List[Tuple[Card, ...]]
    deck: Tuple[Card, ...]
    cut_card: Optional[Card]
    cut_start: Optional[int]
    first: int
    seed: Optional[int]


def _cut_count(card: Card) -> int:
    """The number counted to for a cut card: A = 1, 2..10 face value, J = 11, Q = 12, K = 13."""
    return 1 if card.rank == Rank.ACE else int(card.rank)


def deal(rules: Any = None, players: int = 4, seed: Optional[int] = None) -> Deal:
    """Shuffle and deal one round (RULES.md 7), seeded like ``thirteen.deal``.

    Raises:
        PlayerCountError: ``players`` is not one of ``rules.players`` (any other integer).
        TypeError: ``players`` is not an integer (``bool`` included).
        ValueError: no seed (the reference has no operating-system randomness).
    """
    rules = resolve(rules)
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an integer, got {type(players).__name__}")
    rules.check_players(players)
    if seed is None:
        raise ValueError("the reference deals only with a seed")
    rng = rng_for(seed)
    cards = rules_deck(rules)
    shuffle(cards, rng)
    first = 0
    cut_card: Optional[Card] = None
    cut_start: Optional[int] = None
    if rules.cut:
        cut_card = cards[uniform_below(rng, len(cards))]
        cut_start = uniform_below(rng, players)
        first = (cut_start + _cut_count(cut_card) - 1) % players
    dealt = int(rules.dealt)
    hands: List[List[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(cards[: dealt * players]):
        hands[(first + i) % players].append(card)
    return Deal(
        hands=[tuple(h) for h in hands],
        deck=tuple(cards),
        cut_card=cut_card,
        cut_start=cut_start,
        first=first,
        seed=seed,
    )


def swap_cards(
    hands: Sequence[Union[str, Iterable[Card]]],
    given: Sequence[Union[str, Iterable[Card]]],
    rules: Any = None,
    seed: Optional[int] = None,
) -> List[Tuple[Card, ...]]:
    """Swap-three (换三张, RULES.md 7), seeded like ``thirteen.swap_cards``.

    Each seat gives ``given[seat]`` (cards it holds, at most ``rules.swap.max_cards``); the
    given cards are pooled in seat order, shuffled with the swap generator (stream 1), and
    each seat draws back as many as it gave, in seat order. Returns the new hands: the kept
    cards in their order, then the drawn cards.

    Raises:
        RuleSetError: the rules have no swap (``key="swap"``).
        CountError: not one ``given`` per hand, or a seat gives more than ``max_cards``.
        ThirteenError: a seat gives a card it does not hold.
        ValueError: no seed.
    """
    hand_lists = [as_cards(h) for h in hands]
    given_lists = [as_cards(g) for g in given]
    rules = resolve(rules)
    if rules.swap is None:
        raise RuleSetError("these rules have no swap-three", key="swap")
    max_cards = int(rules.swap.max_cards)
    if len(given_lists) != len(hand_lists):
        raise CountError(
            f"expected {len(hand_lists)} given lists, got {len(given_lists)}",
            expected=len(hand_lists),
            got=len(given_lists),
        )
    kept: List[List[Card]] = []
    pool: List[Card] = []
    for seat, (hand, give) in enumerate(zip(hand_lists, given_lists)):
        if len(give) > max_cards:
            raise CountError(
                f"player {seat} gives {len(give)} cards, at most {max_cards}",
                expected=max_cards,
                got=len(give),
                player=seat,
            )
        rest = list(hand)
        for card in give:
            try:
                rest.remove(card)  # the first equal card, as the core
            except ValueError:
                raise ThirteenError(f"player {seat} gives {card}, which it does not hold") from None
            pool.append(card)
        kept.append(rest)
    if seed is None:
        raise ValueError("the reference swaps only with a seed")
    shuffle(pool, swap_rng(seed))
    start = 0
    for seat, give in enumerate(given_lists):
        kept[seat].extend(pool[start : start + len(give)])
        start += len(give)
    return [tuple(h) for h in kept]
