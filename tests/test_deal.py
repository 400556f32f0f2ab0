"""Dealing (RULES.md 7): the pure-Python reference ``thirteen.reference.deal`` against the
specification in the docs of ``rust/thirteen-core/src/deal.rs`` and against the core.

Expected values come from RFC 8439 (ChaCha20 block function and keystream test vectors),
from the golden deal pinned in the Rust tests, from hand computations written next to the
test, or from the other implementation (the differential tests).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable, List

import pytest
import thirteen
import thirteen.reference as reference
from thirteen.errors import CountError, PlayerCountError, RuleSetError, ThirteenError
from thirteen.reference.deal import (
    ChaCha20Rng,
    chacha20_block,
    rng_for,
    shuffle,
    shuffled_deck,
    swap_rng,
    uniform_below,
)
from thirteen.rules import PRESET_NAMES, RuleSet

U32_MAX = 2**32 - 1


def texts(cards: Iterable[Any]) -> List[str]:
    """Cards of either implementation as their canonical text."""
    return [str(c) for c in cards]


def words(text: str) -> List[int]:
    """32-bit words written in hex, as RFC 8439 prints a state."""
    return [int(word, 16) for word in text.split()]


def le_words(hex_bytes: str) -> List[int]:
    """Keystream bytes (as printed in the RFC) to little-endian 32-bit words."""
    data = bytes.fromhex(hex_bytes)
    return [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]


# --------------------------------------------------------------------------------------
# (1) The ChaCha20 block function and the generator.


def test_chacha20_block_rfc8439_2_3_2() -> None:
    # RFC 8439 2.3.2: key 00:01:..:1f, block count 1, nonce 00:00:00:09:00:00:00:4a:00:00:00:00.
    # The RFC's state has a 32-bit counter (word 12) and a 96-bit nonce (words 13-15).
    state = words("61707865 3320646e 79622d32 6b206574 03020100 07060504 0b0a0908 0f0e0d0c "
                  "13121110 17161514 1b1a1918 1f1e1d1c 00000001 09000000 4a000000 00000000")
    expected = words("e4e7f110 15593bd1 1fdd0f50 c47120a3 c7f4d1c7 0368c033 9aaa2204 4e6cd4c3 "
                     "466482d2 09aa9f07 05d7c214 a2028bd9 d19c12b5 b94e16de e883d0cb 4e3c50a2")
    before = list(state)
    assert chacha20_block(state) == expected
    assert state == before  # the input is not modified


def test_generator_rfc8439_a1_keystream() -> None:
    # RFC 8439 A.1 test vectors #1 and #2: all-zero key and nonce, block counters 0 and 1.
    # Seed 0 is the all-zero key on stream 0, so its first 32 words are these two blocks.
    block0 = le_words(
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
    )
    block1 = le_words(
        "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
        "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"
    )
    rng = rng_for(0)
    assert [rng.next_u32() for _ in range(32)] == block0 + block1


def test_generator_layout() -> None:
    # Key = seed's 8 little-endian bytes + 24 zero bytes; words 12-13 the 64-bit block
    # counter, 14-15 the 64-bit stream id; words come out block after block, in order.
    seed = 0x0123456789ABCDEF
    key_words = [0x89ABCDEF, 0x01234567, 0, 0, 0, 0, 0, 0]
    consts = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    for stream, rng in ((0, rng_for(seed)), (1, swap_rng(seed))):
        words = [rng.next_u32() for _ in range(48)]
        for block in range(3):
            state = consts + key_words + [block, 0, stream, 0]
            assert words[16 * block : 16 * block + 16] == chacha20_block(state)
    # A counter past 2**32 carries into word 13.
    rng = ChaCha20Rng(seed.to_bytes(8, "little") + bytes(24), stream=5, counter=2**32 + 7)
    assert [rng.next_u32() for _ in range(16)] == chacha20_block(consts + key_words + [7, 1, 5, 0])
    assert [rng_for(9).next_u32() for _ in range(4)] != [swap_rng(9).next_u32() for _ in range(4)]


class Scripted:
    """A generator that returns the given words in order."""

    def __init__(self, words: Iterable[int]) -> None:
        self.words = list(words)

    def next_u32(self) -> int:
        return self.words.pop(0)


def test_uniform_below_rejection_zone() -> None:
    # bound 3: 2**32 mod 3 = 1, so only 2**32 - 1 is rejected.
    rng = Scripted([U32_MAX, U32_MAX - 1])
    assert uniform_below(rng, 3) == (U32_MAX - 1) % 3 and rng.words == []
    # bound 6: 2**32 mod 6 = 4, so 2**32 - 4 .. 2**32 - 1 are rejected; 2**32 - 5 is kept.
    rng = Scripted([U32_MAX, U32_MAX - 3, U32_MAX - 4, 0])
    assert uniform_below(rng, 6) == (U32_MAX - 4) % 6 and rng.words == [0]
    # A power of two rejects nothing; bound 1 always gives 0.
    assert uniform_below(Scripted([U32_MAX]), 4) == 3
    assert uniform_below(Scripted([U32_MAX]), 1) == 0
    # bound 2**31 + 1: 2**32 mod bound = 2**31 - 1, so x <= 2**31 is kept.
    rng = Scripted([2**31 + 1, 2**31])
    assert uniform_below(rng, 2**31 + 1) == 2**31 and rng.words == []


def test_shuffle_walk() -> None:
    # Fisher-Yates from the last index down to 1, j = uniform_below(i + 1):
    # [a b c d]: i=3 j=1 -> [a d c b]; i=2 j=2 -> same; i=1 j=0 -> [d a c b].
    cards = ["a", "b", "c", "d"]
    shuffle(cards, Scripted([1, 2, 0]))
    assert cards == ["d", "a", "c", "b"]


# --------------------------------------------------------------------------------------
# (2) The golden deal pinned in the Rust tests.


def test_golden_deal_2026() -> None:
    golden = "Td Th 8h 3d 9h 7d Qs Qd Jc 2s 2d 9c 8s"
    assert reference.format_cards(shuffled_deck(None, 2026)[:13]) == golden
    assert reference.format_cards(reference.deal(seed=2026).deck[:13]) == golden
    assert thirteen.format_cards(thirteen.deal(seed=2026).deck[:13]) == golden


# --------------------------------------------------------------------------------------
# (3) Core against reference: deals.

SEEDS = [0, 1, 2, 7, 42, 2026, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
_R = random.Random(1306)
SEEDS += [_R.getrandbits(64) for _ in range(120)] + [_R.randrange(1000) for _ in range(20)]


def rule_variants() -> List[Any]:
    """Every preset, plus the cut on the 65-card deck dealt 16 (no preset combines them)."""
    out = [RuleSet.preset(name) for name in PRESET_NAMES]
    out.append(RuleSet.preset("kaixin-extra").replace(cut=True))
    out.append(RuleSet.preset("shisanzhang").replace(players=[3]))
    return out


RULES = rule_variants()


def assert_same_deal(core: Any, ref: Any) -> None:
    assert [texts(h) for h in core.hands] == [texts(h) for h in ref.hands]
    assert texts(core.deck) == texts(ref.deck)
    assert (None if core.cut_card is None else str(core.cut_card)) == (
        None if ref.cut_card is None else str(ref.cut_card)
    )
    assert core.cut_start == ref.cut_start
    assert core.first == ref.first
    assert core.seed == ref.seed


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-cut{int(r.cut)}-{len(r.players)}p")
def test_core_matches_reference(rules: Any) -> None:
    for players in rules.players:
        for seed in SEEDS:
            core = thirteen.deal(rules, players, seed)
            ref = reference.deal(rules, players, seed=seed)
            assert_same_deal(core, ref)


def test_default_rules_and_keywords() -> None:
    assert_same_deal(thirteen.deal(seed=5), reference.deal(seed=5))
    assert_same_deal(thirteen.deal(None, players=2, seed=5), reference.deal(None, players=2, seed=5))


@pytest.mark.parametrize("impl", [thirteen, reference], ids=["core", "reference"])
def test_bad_player_count(impl: Any) -> None:
    for players in (0, 1, 5):
        with pytest.raises(PlayerCountError) as err:
            impl.deal(None, players, seed=3)
        assert err.value.got == players and tuple(err.value.allowed) == (2, 3, 4)
    only3 = RuleSet.preset("shisanzhang").replace(players=[3])
    with pytest.raises(PlayerCountError):
        impl.deal(only3, 4, seed=3)


def test_reference_needs_a_seed() -> None:
    with pytest.raises(ValueError):
        reference.deal()


# --------------------------------------------------------------------------------------
# (4) Core against reference: swap-three (stream 1).


def random_gives(rng: random.Random, hands: List[List[str]], max_cards: int) -> List[List[str]]:
    return [rng.sample(hand, rng.randint(0, min(max_cards, len(hand)))) for hand in hands]


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet.preset("kaixin-swap"),
        RuleSet.preset("kaixin-extra").replace(swap={"max_cards": 13}),
        RuleSet.preset("shisanzhang").replace(swap={"max_cards": 5}),
    ],
    ids=["kaixin-swap", "extra-13", "cut-5"],
)
def test_swap_core_matches_reference(rules: Any) -> None:
    rng = random.Random(77)
    max_cards = rules.swap.max_cards
    for round_no in range(60):
        players = rng.choice(rules.players)
        seed = rng.getrandbits(64) if round_no % 2 else rng.randrange(100)
        hands = [texts(h) for h in reference.deal(rules, players, seed=seed).hands]
        given = random_gives(rng, hands, max_cards)
        hands_text = [" ".join(h) for h in hands]
        given_text = [" ".join(g) for g in given]
        core = thirteen.swap_cards(hands_text, given_text, rules, seed)
        ref = reference.swap_cards(hands_text, given_text, rules, seed=seed)
        assert [texts(h) for h in core] == [texts(h) for h in ref]
        # Kept cards keep their order, then as many drawn as given; cards are conserved.
        for hand, give, after in zip(hands, given, ref):
            rest = list(hand)
            for card in give:
                rest.remove(card)
            assert texts(after)[: len(rest)] == rest
            assert len(after) == len(hand)
        assert Counter(c for h in hands for c in h) == Counter(c for h in ref for c in texts(h))


def test_swap_errors_agree() -> None:
    rules = RuleSet.preset("kaixin-swap")
    hands = [" ".join(texts(h)) for h in reference.deal(rules, 3, seed=11).hands]
    first = hands[0].split()
    other = hands[1].split()
    cases = [
        (RuleSetError, hands, ["", "", ""], RuleSet.default()),
        (CountError, hands, ["", ""], rules),
        (CountError, hands, [" ".join(first[:4]), "", ""], rules),
        (ThirteenError, hands, [other[0], "", ""], rules),
    ]
    for error, h, given, r in cases:
        for impl in (thirteen, reference):
            with pytest.raises(error):
                impl.swap_cards(h, given, r, seed=1)


# --------------------------------------------------------------------------------------
# (5) Properties of every deal.


def cut_count(card: Any) -> int:
    """RULES.md 7: the cut card's number, A = 1, J = 11, Q = 12, K = 13."""
    return {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(str(card)[0]) or int(str(card)[0])


def counted_seat(start: int, number: int, players: int) -> int:
    """Count ``start`` as 1 and go counterclockwise (increasing seat index) to ``number``."""
    seat = start
    for _ in range(number - 1):
        seat = (seat + 1) % players
    return seat


def check_properties(d: Any, rules: Any, players: int) -> None:
    full = Counter(texts(reference.deck(rules)))
    assert Counter(texts(d.deck)) == full
    assert len(d.hands) == players
    assert all(len(h) == rules.dealt for h in d.hands)
    # One card at a time from the first seat, counterclockwise.
    for i, card in enumerate(texts(d.deck)[: rules.dealt * players]):
        seat = (d.first + i) % players
        assert texts(d.hands[seat])[i // players] == card
    dealt = Counter(c for h in d.hands for c in texts(h))
    assert dealt + Counter(texts(d.deck)[rules.dealt * players :]) == full
    if rules.cut:
        assert d.cut_card is not None and 0 <= d.cut_start < players
        assert str(d.cut_card) in texts(d.deck)  # shown, stays in the deck
        assert d.first == counted_seat(d.cut_start, cut_count(d.cut_card), players)
    else:
        assert d.cut_card is None and d.cut_start is None and d.first == 0


@pytest.mark.parametrize("impl", [thirteen, reference], ids=["core", "reference"])
def test_deal_properties(impl: Any) -> None:
    firsts = Counter()
    for rules in RULES:
        for players in rules.players:
            for seed in SEEDS[:20]:
                d = impl.deal(rules, players, seed=seed)
                check_properties(d, rules, players)
                if rules.cut:
                    firsts[(players, d.first)] += 1
    # The cut does move the first seat.
    assert any(first != 0 for (_, first) in firsts)


def test_cut_counting_examples() -> None:
    # Hand-counted: start 2 at a 4-seat table, K = 13 -> 2,3,0,1,2,3,0,1,2,3,0,1,2 -> seat 2;
    # A = 1 -> the start itself; 5 at 3 seats from 1 -> 1,2,0,1,2 -> seat 2; J at 2 seats from 0 -> 0.
    assert counted_seat(2, 13, 4) == 2
    assert counted_seat(3, 1, 4) == 3
    assert counted_seat(1, 5, 3) == 2
    assert counted_seat(0, 11, 2) == 0
    assert [cut_count(c) for c in ("As", "Td", "Jh", "Qc", "Ks", "2d", "9s")] == [1, 10, 11, 12, 13, 2, 9]


def test_unseeded_core_deals_differ() -> None:
    a, b = thirteen.deal(), thirteen.deal()
    assert a.seed is None and b.seed is None
    check_properties(a, RuleSet.default(), 4)
    # Two equal 52-card orders from the secure source: probability 1/52!.
    assert texts(a.deck) != texts(b.deck)
    cut = RuleSet.preset("shisanzhang")
    decks = {tuple(texts(thirteen.deal(cut, 3).deck)) for _ in range(5)}
    assert len(decks) == 5


def test_seeded_deals_are_repeatable() -> None:
    for impl in (thirteen, reference):
        assert texts(impl.deal(seed=123).deck) == texts(impl.deal(seed=123).deck)
        assert texts(impl.deal(seed=123).deck) != texts(impl.deal(seed=124).deck)


def test_core_rejects_bad_seeds() -> None:
    import thirteen
    from thirteen.errors import ThirteenError

    for bad in (-1, 2**64, "7"):
        with pytest.raises(ThirteenError):
            thirteen.deal(None, 4, bad)
