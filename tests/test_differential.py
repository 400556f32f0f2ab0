"""Differential property tests: the Rust core (``thirteen``) against the pure-Python
reference (``thirteen.reference``), with hypothesis.

Random 3- and 5-card hands from both decks (standard and extra_diamonds, drawn
without replacement from ``deck(rules)``) under random rule variants (wheel low /
second, tie_break none / suit): the same category, deciding ranks and text, the same
order between hands and the same lane results; random 13-card hands split into
arrangements: the same foul verdict; random text: the same cards or the same error.

Profiles: "dev" (default) and "ci" (derandomized, so CI runs are reproducible); choose
with ``THIRTEEN_HYPOTHESIS_PROFILE`` (``CI`` set selects "ci"); they apply to this module only. ``THIRTEEN_HYPOTHESIS_SCALE``
multiplies every ``max_examples`` for a longer hunt.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from typing import Any, List, Tuple

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import thirteen as core
import thirteen.reference as ref
from thirteen.errors import CardError, ThirteenError
from thirteen.rules import RuleSet

settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
# The profile is applied per test (as the parent of each test's settings), not loaded
# globally, so other test modules keep their own settings.
PROFILE = settings.get_profile(
    os.environ.get("THIRTEEN_HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
)
SCALE = int(os.environ.get("THIRTEEN_HYPOTHESIS_SCALE", "1"))


def examples(n: int) -> settings:
    return settings(PROFILE, max_examples=n * SCALE, deadline=None)


# ---------------------------------------------------------------------------
# rule variants and hands

VARIANTS = [
    RuleSet.default().replace(deck=deck, wheel=wheel, tie_break=tie_break)
    for deck, wheel, tie_break in itertools.product(
        ["standard", "extra_diamonds"], ["low", "second"], ["none", "suit"]
    )
]
DECK_TEXT = {r.deck: [str(c) for c in ref.deck(r)] for r in VARIANTS}
RANKS = "23456789TJQKA"
# Runs of five ranks, for straights: the wheel and 2-6 .. T-A.
RUNS = ["A2345"] + [RANKS[i : i + 5] for i in range(9)]

rules_st = st.sampled_from(VARIANTS)


@st.composite
def hands(draw: Any, deck: str, size: int) -> str:
    """``size`` cards drawn without replacement from the deck, as text.

    Often from a narrowed deck (few ranks, one suit, a run of ranks, or both),
    so that every category, including straights, flushes, straight flushes,
    quads, five of a kind and the wheel, comes up regularly.
    """
    cards = DECK_TEXT[deck]
    mode = draw(st.sampled_from(["any", "any", "few_ranks", "one_suit", "run", "run_suited"]))
    pool = list(range(len(cards)))
    if mode == "few_ranks":
        chosen = draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=4, unique=True))
        pool = [i for i in pool if cards[i][0] in chosen]
    elif mode == "one_suit":
        suit = draw(st.sampled_from("dchs"))
        pool = [i for i in pool if cards[i][1] == suit]
    elif mode == "run":
        # one card of each rank of a run: a straight, sometimes a straight flush
        run = draw(st.sampled_from(RUNS))
        suits = draw(st.lists(st.sampled_from("dchs"), min_size=5, max_size=5))
        if draw(st.booleans()):
            suits = [suits[0]] * 5
        chosen_cards = draw(st.permutations([r + s for r, s in zip(run, suits)]))
        return " ".join(chosen_cards[:size])
    elif mode == "run_suited":
        run = draw(st.sampled_from(RUNS))
        pool = [i for i in pool if cards[i][0] in run]
        suit = draw(st.sampled_from("dchs"))
        suited = [i for i in pool if cards[i][1] == suit]
        extra = draw(st.lists(st.sampled_from(pool), max_size=2, unique=True))
        pool = sorted(set(suited) | set(extra))
    if len(pool) < size:
        pool = list(range(len(cards)))
    picks = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    return " ".join(cards[i] for i in picks)


def copies(rules: Any, card: str) -> int:
    return 2 if rules.deck == "extra_diamonds" and card[1] == "d" else 1


def resuit(text: str, perm: Tuple[str, ...], rules: Any) -> str:
    """The same ranks with the suits permuted (``perm`` maps d c h s); the hand itself
    when that breaks the deck (a repeated diamond moved to another suit)."""
    mapping = dict(zip("dchs", perm))
    out = [c[0] + mapping[c[1]] for c in text.split()]
    if any(n > copies(rules, c) for c, n in Counter(out).items()):
        return text
    return " ".join(out)


def value_facts(v: Any) -> Tuple[str, str, str, str, int]:
    return (v.category.key, "".join(r.char for r in v.ranks), v.high.char, str(v), v.size)


def sign(a: Any, b: Any) -> int:
    return (a > b) - (a < b)


# ---------------------------------------------------------------------------
# hand values


@examples(1000)
@given(data=st.data(), rules=rules_st, size=st.sampled_from([5, 5, 3]))
def test_evaluate_same(data: Any, rules: Any, size: int) -> None:
    text = data.draw(hands(rules.deck, size), label="hand")
    vc = core.evaluate(core.parse_cards(text), rules)
    vr = ref.evaluate(ref.parse_cards(text), rules)
    assert value_facts(vc) == value_facts(vr)
    assert vc == core.evaluate(text, rules)


@examples(1000)
@given(
    data=st.data(),
    rules=rules_st,
    sizes=st.sampled_from([(5, 5), (3, 3), (3, 5), (5, 3)]),
    perm=st.permutations("dchs"),
    same_ranks=st.booleans(),
)
def test_order_and_compare_lanes_same(
    data: Any, rules: Any, sizes: Tuple[int, int], perm: Any, same_ranks: bool
) -> None:
    a = data.draw(hands(rules.deck, sizes[0]), label="a")
    if same_ranks and sizes[0] == sizes[1]:
        b = resuit(a, tuple(perm), rules)  # equal values: the tie break decides
    else:
        b = data.draw(hands(rules.deck, sizes[1]), label="b")
    ca, cb = core.evaluate(a, rules), core.evaluate(b, rules)
    ra, rb = ref.evaluate(a, rules), ref.evaluate(b, rules)
    assert sign(ca, cb) == sign(ra, rb)
    assert (ca == cb) == (ra == rb)
    assert (ca <= cb) == (ra <= rb)
    if ca == cb:
        assert hash(ca) == hash(cb)
    if sizes[0] == sizes[1]:
        lc = core.compare_lanes(core.parse_cards(a), core.parse_cards(b), rules)
        lr = ref.compare_lanes(ref.parse_cards(a), ref.parse_cards(b), rules)
        assert lc == lr
        assert lc in (-1, 0, 1)
        if sign(ra, rb) != 0:
            assert lr == sign(ra, rb)
        elif rules.tie_break == "none":
            assert lr == 0


@examples(400)
@given(data=st.data(), rules=rules_st, size=st.sampled_from([3, 5]))
def test_duplicates_same(data: Any, rules: Any, size: int) -> None:
    """Cards drawn WITH replacement: both accept with the same value, or both name
    the same duplicate card."""
    cards = DECK_TEXT["standard"]
    text = " ".join(data.draw(st.lists(st.sampled_from(cards), min_size=size, max_size=size)))

    def run(impl: Any) -> Any:
        try:
            return value_facts(impl.evaluate(text, rules))
        except ThirteenError as err:
            return (type(err).__name__, err.kind, getattr(err, "card", None))

    assert run(core) == run(ref)


# ---------------------------------------------------------------------------
# fouls


@examples(600)
@given(
    data=st.data(),
    rules=rules_st,
    layout=st.sampled_from(["shuffled", "sorted", "middle_back_ordered"]),
)
def test_is_foul_same(data: Any, rules: Any, layout: str) -> None:
    cards = DECK_TEXT[rules.deck]
    narrow = data.draw(st.booleans(), label="narrow")
    pool: List[int] = list(range(len(cards)))
    if narrow:  # few suits or few ranks: more pairs, trips, flushes
        suits = data.draw(st.lists(st.sampled_from("dchs"), min_size=2, max_size=3, unique=True))
        pool = [i for i in pool if cards[i][1] in suits]
    picks = data.draw(st.permutations(pool), label="order")[:13]
    texts = [cards[i] for i in picks]
    if layout == "sorted":
        # back gets the five highest ranks, then middle, then front
        texts.sort(key=lambda c: RANKS.index(c[0]), reverse=True)
        back, middle, front = texts[:5], texts[5:10], texts[10:]
    else:
        front, middle, back = texts[:3], texts[3:8], texts[8:]
        if layout == "middle_back_ordered" and ref.evaluate(" ".join(middle), rules) > ref.evaluate(
            " ".join(back), rules
        ):
            middle, back = back, middle
    text = " | ".join(" ".join(lane) for lane in (front, middle, back))
    ac = core.Arrangement.parse(text, rules)
    ar = ref.Arrangement.parse(text, rules)
    assert str(ac) == str(ar) == text
    assert core.is_foul(ac, rules) == ref.is_foul(ar, rules)
    # the same lanes through the constructor
    assert core.is_foul(core.Arrangement(" ".join(front), " ".join(middle), " ".join(back), rules), rules) == (
        ref.is_foul(ar, rules)
    )


# ---------------------------------------------------------------------------
# parsing

RANK_SPELLINGS = list("23456789TtJjQqKkAa") + ["10"]
SUIT_SPELLINGS = list("sShHcCdD") + list("♠♥♣♦♤♡♧♢")
JUNK = [
    "1h", "Xs", "Ahh", "10", "1", "A", "h", "11h", "0s", "01h", "100s", "T10", "♠", "A♠♠",
    "♠A", "|", "sA", "AsKd", "Ａs", "Ás", "ǅs", "1０h", "١٠h", "Ⓐs", "A\u200bs", "A-s", "A.s",
    "😀", "十三", "Jokers", "RJ", "BJ", "As;", "(As)", "As\u0301",
]  # fmt: skip
SEPARATORS = [" ", ",", ", ", " ,", ",,", "  ", "\t", "\n", "\r\n", " , , ", "\u3000", "\xa0", "\u2003"]


@st.composite
def card_text(draw: Any) -> str:
    tokens = draw(
        st.lists(
            st.one_of(
                st.tuples(st.sampled_from(RANK_SPELLINGS), st.sampled_from(SUIT_SPELLINGS)).map("".join),
                st.tuples(st.sampled_from(RANK_SPELLINGS), st.sampled_from(SUIT_SPELLINGS)).map("".join),
                st.sampled_from(JUNK),
                st.text(min_size=1, max_size=4),
            ),
            max_size=8,
        )
    )
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(tokens) + 1, max_size=len(tokens) + 1))
    lead = draw(st.booleans())
    trail = draw(st.booleans())
    out = seps[0] if lead else ""
    for i, token in enumerate(tokens):
        out += token
        if i + 1 < len(tokens) or trail:
            out += seps[i + 1]
    return out


def parse_outcome(impl: Any, text: str) -> Any:
    try:
        return ("ok", [str(c) for c in impl.parse_cards(text)])
    except CardError as err:
        return ("CardError", err.token, err.position, err.kind)


@examples(2000)
@given(text=st.one_of(card_text(), st.text(max_size=20)))
@example(text="As Kd 10c , ,")
@example(text="AS,KD,TC,1h")
@example(text="a♠ k♦ t♣ Ahh")
@example(text="")
@example(text=",,")
def test_parse_same(text: str) -> None:
    assert parse_outcome(core, text) == parse_outcome(ref, text)


def test_parse_same_known_cases() -> None:
    """Hand-picked inputs where two readings of "whitespace" and "case-insensitive"
    could part ways (Unicode lower-casing, ASCII control separators)."""
    cases = [
        "\u212as 2d",  # KELVIN SIGN: lower-cases to "k" in Python, but it is not the rank K
        "As\x1cKd",  # INFORMATION SEPARATOR FOUR: str.isspace() but not Unicode White_Space
        "As\x1fKd",
        "As\x85Kd",
        "As\u2028Kd",
        "As\u200bKd",  # ZERO WIDTH SPACE: not whitespace anywhere
        "\u0130s",  # LATIN CAPITAL I WITH DOT
        "ﬅ",
    ]
    mismatches = [(t, parse_outcome(core, t), parse_outcome(ref, t)) for t in cases]
    mismatches = [m for m in mismatches if m[1] != m[2]]
    assert not mismatches, mismatches
