"""A player learns nothing about cards it may not see (issue 52: the card oracle).

The attack: a seat submits (or gives, in swap-three) its hand with one card replaced by a
card it does not hold, once for every such card, and compares what comes back. Whether
another seat holds that card, and which seat, must not change the answer: the exception's
class, its text with the probed card's name blanked, and its attributes other than ``card``
must be the same for every probe. The expected equality comes from the rule itself (the
answer may depend on the seat's own cards and on what it sent, nothing else), not from the
code's output.
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple

import pytest

import thirteen
from thirteen import Arrangement, Card, CardNotHeldError, Round, RuleSet, ThirteenError

PRESETS = ["kaixin", "shisanzhang", "western-2-4", "kaixin-extra"]


def _answer(call: Callable[[], Any], probe: Card) -> Tuple[str, str, Tuple[Tuple[str, Any], ...]]:
    """What a caller sees when ``call`` refuses the probe: the class, the text with the
    probed card blanked, and the attributes without ``card``."""
    with pytest.raises(ThirteenError) as err:
        call()
    exc = err.value
    details = exc.details()
    assert details.pop("card") in (str(probe), None)
    text = exc.message.replace(str(probe), "<card>")
    return type(exc).__name__, text, tuple(sorted(details.items()))


def _probes(rnd: Round, seat: int) -> List[Card]:
    held = set(rnd.hand(seat))
    return [c for c in dict.fromkeys(thirteen.deck(rnd.rules)) if c not in held]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_submit_answers_alike_whoever_holds_the_card(preset: str, players: int) -> None:
    rules = RuleSet.preset(preset)
    if players not in rules.players:
        pytest.skip(f"{preset} does not seat {players}")
    rnd = Round(rules, players, seed=52)
    rnd.deal()
    seat = 0
    hand = list(rnd.hand(seat))[:13]
    probes = _probes(rnd, seat)
    owners = {s for c in probes for s in range(players) if s != seat and c in rnd.hand(s)}
    assert owners == set(range(1, players))  # the probes cover every other seat
    if players == 2 and preset != "kaixin-extra":
        assert any(all(c not in rnd.hand(s) for s in range(players)) for c in probes)
    before = rnd.to_dict()
    answers = set()
    for probe in probes:
        cards = [probe] + hand[1:]
        arrangement = Arrangement(cards[:3], cards[3:8], cards[8:])
        answers.add(_answer(lambda: rnd.submit(seat, arrangement), probe))
    assert len(answers) == 1, answers
    ((kind, text, details),) = answers
    assert kind == CardNotHeldError.__name__
    assert dict(details)["player"] == seat
    assert rnd.to_dict() == before


def test_give_answers_alike_whoever_holds_the_card() -> None:
    rules = RuleSet.preset("kaixin-swap")
    rnd = Round(rules, 4, seed=52)
    rnd.deal()
    assert rnd.phase == "swap"
    seat = 2
    own = list(rnd.hand(seat))
    answers = set()
    for probe in _probes(rnd, seat):
        answers.add(_answer(lambda: rnd.give(seat, [own[0], probe]), probe))
    assert len(answers) == 1, answers
    assert next(iter(answers))[0] == CardNotHeldError.__name__


def test_the_message_names_no_seat_but_the_callers() -> None:
    rnd = Round(RuleSet.preset("kaixin"), 4, seed=7)
    rnd.deal()
    foreign = rnd.hand(3)[0]
    cards = [foreign] + list(rnd.hand(0))[1:]
    with pytest.raises(CardNotHeldError) as err:
        rnd.submit(0, Arrangement(cards[:3], cards[3:8], cards[8:]))
    for other in (1, 2, 3):
        assert f"seat {other}" not in err.value.message
    assert err.value.player == 0 and err.value.card == str(foreign)
