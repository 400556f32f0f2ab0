"""One round of Thirteen as a server drives it (RULES.md 5 and 7): :class:`Round` and
its :class:`RoundResult`.

Phases: ``"new" --deal()--> "swap" --finish_swap()--> "arrange" --settle()--> "settled"``
(``"swap"`` only with swap-three, 换三张). A call that raises changes nothing. Seats are
``0 .. n-1`` in dealing order; *units* (注) are what RULES.md 5 counts, *money* is units ×
the stake in minor currency units, less the rake. What the round decides where RULES.md
is silent: docs/rules.md, "Decisions of the round flow".
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from thirteen import _core
from thirteen._core import Arrangement, Card, Declaration
from thirteen._plain import short
from thirteen.errors import (
    CardNotHeldError,
    CountError,
    DuplicateCardError,
    FalseSpecialError,
    FouledError,
    RoundStateError,
    SurrenderError,
    ThirteenError,
)
from thirteen.game import saves
from thirteen.game._args import (
    CardsLike,
    MoneySettings,
    PlayerId,
    Submission,
    cards_of,
    cards_text,
    check_player_id,
    is_int,
    normal_rake,
    one_per_seat,
    submission_from,
    submission_to_dict,
)
from thirteen.game.dealing import checked_deal, checked_swap, shuffled
from thirteen.game.decisions import (
    SURRENDER,
    AutoPlay,
    Play,
    engine_gift,
    engine_play,
    gift_seed,
)
from thirteen.game.replay import round_from
from thirteen.game.result import RoundResult
from thirteen.gifts import MAX_GIFT_TOP, Gift, gift as _gift
from thirteen.rules import RuleSet
from thirteen.solver import Hint, hints as _hints

__all__ = [
    "Round",
    "RoundResult",
    "RoundStateError",
    "CardNotHeldError",
    "AUTO_REASONS",
    "MAX_HINTS",
    "PHASES",
]

#: The phases of a round, in order (``"swap"`` only with swap-three, 换三张).
PHASES: Tuple[str, ...] = ("new", "swap", "arrange", "settled")

#: The most hints :meth:`Round.hints` gives a seat at once.
MAX_HINTS = 50

#: Why a seat was auto-arranged (代打): ran out of time, or disconnected (断线).
AUTO_REASONS: Tuple[str, ...] = ("timeout", "disconnect")

_ROUND_FORMAT = saves.ROUND_FORMAT


# ----------------------------------------------------------------------------- Round


class Round(saves.JsonSave, MoneySettings):
    """One round of Thirteen as a server drives it (RULES.md 7).

    Args:
        rules: the :class:`~thirteen.RuleSet`.
        seats: the number of seats dealt in, or the player ids per seat (each a ``str``
            or ``int``, distinct); an int ``n`` names the players ``0 .. n-1``. The count
            must be one of ``rules.players``.
        stakes: banker mode only (庄家, ``rules.mode = "banker"``): each seat's stake
            multiplier (ints ≥ 1, one per seat; the banker's own is ignored), RULES.md 5
            step 9; ``None``: all 1.
        banker: the banker's seat (banker mode; ignored otherwise).
        seed: ``0 ≤ seed < 2**64`` for a reproducible deal and swap (ChaCha20, see
            :func:`thirteen.deal`); ``None``: the operating system's secure random source.
        stake: money per unit, an int ≥ 0 in minor currency units (RULES.md 5 "Money").
        rake: ``(percent, cap)``: the rake (服务费) taken from each seat's positive money,
            ``percent`` an int or a decimal string (``"2.5"``), ``cap`` the most taken from
            one seat (``None``: no cap); ``None``: no rake.

    Raises:
        PlayerCountError: a seat count the rules do not allow.
        ThirteenError: a bad banker seat, stakes, seed, stake or rake.
        TypeError: a player id that is not a str or an int.
    """

    def __init__(
        self,
        rules: RuleSet,
        seats: Union[int, Sequence[PlayerId]],
        *,
        stakes: Optional[Sequence[int]] = None,
        banker: int = 0,
        seed: Optional[int] = None,
        stake: int = 1,
        rake: Optional[Tuple[Any, Optional[int]]] = None,
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
        if is_int(seats):
            # A count the rules do not allow is refused before any list is built for it.
            count = rules.check_players(int(seats))  # type: ignore[arg-type]
            players: Tuple[PlayerId, ...] = tuple(range(count))
        elif isinstance(seats, (str, bytes)):
            raise TypeError("seats must be a count or a sequence of player ids")
        else:
            players = tuple(seats)  # type: ignore[arg-type]
            for player in players:
                check_player_id(player)
            if len(set(players)) != len(players):
                raise ThirteenError(f"player ids must be distinct, got {list(players)}")
        n = rules.check_players(len(players))
        if not is_int(banker) or not 0 <= banker < n:
            raise ThirteenError(f"banker seat {short(banker)} is not a seat of a {n}-player round")
        if stakes is not None:
            if rules.mode != "banker":
                raise ThirteenError("stakes (stake multipliers) only apply in banker mode")
            stakes = one_per_seat("stakes", stakes, n)
            for seat, value in enumerate(stakes):
                if not is_int(value) or value < 1:
                    raise ThirteenError(
                        f"stake of seat {seat} must be an integer >= 1, got {short(value)}"
                    )
        if seed is not None and (not is_int(seed) or not 0 <= seed < 2**64):
            raise ThirteenError(f"seed must be an integer in 0 .. 2**64 - 1, got {short(seed)}")
        if not is_int(stake) or stake < 0:
            raise ThirteenError(
                f"stake must be an integer >= 0 (minor currency units), got {short(stake)}"
            )
        _core.money([1], stake)  # the core's bounds on money (ThirteenError)
        self._rules = rules
        self._players = players
        self._stakes: Optional[Tuple[int, ...]] = stakes
        self._banker = int(banker)
        self._seed: Optional[int] = None if seed is None else int(seed)
        self._stake = int(stake)
        self._rake = normal_rake(rake)
        self._phase = "new"
        self._dealt: Optional[List[Tuple[Card, ...]]] = None
        self._cut_card: Optional[Card] = None
        self._cut_start: Optional[int] = None
        self._first: Optional[int] = None
        self._hands: Optional[List[Tuple[Card, ...]]] = None
        self._given: List[Optional[Tuple[Card, ...]]] = [None] * n
        self._subs: List[Optional[Submission]] = [None] * n
        self._auto: List[Optional[str]] = [None] * n
        self._auto_given: List[Optional[str]] = [None] * n
        self._surrendered: Set[int] = set()
        self._escaped: List[int] = []
        self._disconnected: Set[int] = set()
        self._result: Optional[RoundResult] = None

    # ------------------------------------------------------------------ read-only state

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self._rules

    @property
    def players(self) -> Tuple[PlayerId, ...]:
        """The player ids, per seat."""
        return self._players

    @property
    def seats(self) -> int:
        """The number of seats dealt in."""
        return len(self._players)

    @property
    def phase(self) -> str:
        """``"new"``, ``"swap"`` (swap-three only), ``"arrange"`` or ``"settled"``."""
        return self._phase

    @property
    def seed(self) -> Optional[int]:
        """The round's seed (``None``: dealt from the secure random source)."""
        return self._seed

    @property
    def banker(self) -> int:
        """The banker's seat (庄家; meaningful in banker mode)."""
        return self._banker

    @property
    def stakes(self) -> Optional[Tuple[int, ...]]:
        """The banker-mode stake multipliers per seat, or ``None`` (all 1)."""
        return self._stakes

    @property
    def cut_card(self) -> Optional[Card]:
        """The cut card (切牌, when ``rules.cut``), after :meth:`deal`."""
        return self._cut_card

    @property
    def cut_start(self) -> Optional[int]:
        """The seat that counted as 1 for the cut (when ``rules.cut``)."""
        return self._cut_start

    @property
    def first(self) -> Optional[int]:
        """The seat dealt first, after :meth:`deal`."""
        return self._first

    @property
    def dealt_hands(self) -> Optional[Tuple[Tuple[Card, ...], ...]]:
        """The hands as dealt, before any swap (``None`` before :meth:`deal`)."""
        return None if self._dealt is None else tuple(self._dealt)

    @property
    def submissions(self) -> Dict[int, Submission]:
        """The recorded submissions, seat → :class:`Arrangement` / :class:`Declaration`."""
        return {s: sub for s, sub in enumerate(self._subs) if sub is not None}

    @property
    def auto_reasons(self) -> Dict[int, str]:
        """Seats auto-arranged so far (代打) → ``"timeout"`` or ``"disconnect"``."""
        return {s: r for s, r in enumerate(self._auto) if r is not None}

    @property
    def auto_given(self) -> Dict[int, str]:
        """Seats whose swap-three gift (换三张) the engine chose (代打) → ``"timeout"`` or
        ``"disconnect"``."""
        return {s: r for s, r in enumerate(self._auto_given) if r is not None}

    @property
    def given(self) -> Dict[int, Tuple[Card, ...]]:
        """Swap-three gifts (换三张) recorded so far, seat → cards."""
        return {s: g for s, g in enumerate(self._given) if g is not None}

    @property
    def surrendered(self) -> Tuple[int, ...]:
        """Seats that surrendered, ascending."""
        return tuple(sorted(self._surrendered))

    @property
    def escaped(self) -> Tuple[int, ...]:
        """Seats that escaped (强退), in the order they left."""
        return tuple(self._escaped)

    @property
    def disconnected(self) -> Tuple[int, ...]:
        """Seats currently disconnected (断线), ascending."""
        return tuple(sorted(self._disconnected))

    @property
    def present(self) -> Tuple[int, ...]:
        """Seats still in the round (not escaped), ascending."""
        return tuple(s for s in range(self.seats) if s not in self._escaped)

    @property
    def missing(self) -> Tuple[int, ...]:
        """Seats still in the round that have neither submitted nor surrendered."""
        return tuple(
            s for s in self.present if self._subs[s] is None and s not in self._surrendered
        )

    @property
    def result(self) -> Optional[RoundResult]:
        """The :class:`RoundResult` once settled, else ``None``."""
        return self._result

    def player_of(self, seat: int) -> PlayerId:
        """The player id of a round seat.

        Raises:
            ThirteenError: an unknown seat.
        """
        return self._players[self._seat(seat)]

    def hand(self, seat: int) -> Tuple[Card, ...]:
        """The seat's current cards (13, or 16 with ``rules.dealt = 16``; after the swap
        in swap-three).

        Raises:
            RoundStateError: before :meth:`deal`; ThirteenError: an unknown seat.
        """
        self._seat(seat)
        if self._hands is None:
            raise RoundStateError(
                "no cards yet: the round is not dealt", player=seat, phase=self._phase
            )
        return self._hands[seat]

    # ------------------------------------------------------------------ flow

    def deal(self, dealt: Any = None) -> None:
        """Shuffles and deals (RULES.md 7.1–7.2) with :func:`thirteen.deal`: ``rules.dealt``
        cards per seat, cut (切牌) when ``rules.cut``; or deals ``dealt``, a deal made
        before. Moves to ``"swap"`` (swap-three) or ``"arrange"``.

        Args:
            dealt: ``None`` to shuffle; or a deal to play (a replay, a save): a
                :class:`thirteen.Deal` or any object with its ``hands`` (one per seat,
                card text or cards), ``cut_card``, ``cut_start`` and ``first``. It must be
                a deal of the rules (``rules.dealt`` cards a seat, no card more often than
                the deck has it, the cut reaching the first seat) and, in a seeded round,
                the seed's deal.

        Raises:
            RoundStateError: not in the ``"new"`` phase.
            CountError: ``dealt`` has not one hand per seat, or a hand of another size
                (``player`` = seat).
            DuplicateCardError: ``dealt`` deals a card more often than the deck has it.
            DealError: ``dealt``'s cut or first seat, or not the seed's deal (``key``).
            CardError: unreadable card text in ``dealt``.
        """
        self._need_phase("new")
        if dealt is None:
            deal = shuffled(self._rules, self.seats, self._seed)
        else:
            deal = checked_deal(self._rules, self.seats, self._seed, dealt)
        self._dealt = list(deal.hands)
        self._hands = list(deal.hands)
        self._cut_card = deal.cut_card
        self._cut_start = deal.cut_start
        self._first = deal.first
        self._phase = "swap" if self._rules.swap is not None else "arrange"

    def give(self, seat: int, cards: CardsLike) -> None:
        """Swap-three (换三张, RULES.md 7.3): the seat gives 0 to ``rules.swap.max_cards``
        of its cards (replacing what it gave before, until :meth:`finish_swap`).

        Args:
            seat: the round seat.
            cards: text (``"As Kd 2c"``) or a sequence of :class:`Card` / card text.

        Raises:
            RoundStateError: not in the ``"swap"`` phase, or an escaped seat.
            CountError: more than ``max_cards`` cards (``player`` = seat).
            CardNotHeldError: a card the seat does not hold (as often as given).
            CardError: an unreadable card.
        """
        self._need_phase("swap", seat)
        self._need_present(seat)
        self._given[seat] = self._checked_gift(seat, cards)
        self._auto_given[seat] = None

    def gift_hints(self, seat: int, n: int = 5) -> List[Gift]:
        """Hints for the seat's swap-three gift (换三张, RULES.md 7.3): up to ``n`` gifts,
        best first, each with the expected units of the hand played after the swap, keeping
        every card among them where it ranks (:func:`thirteen.gift`; :attr:`Gift.label`
        says what each does). In a seeded round the pools are those :meth:`auto` draws, so
        the first hint is the gift the engine makes for the seat.

        Args:
            seat: the round seat.
            n: how many hints, 1 to 10.

        Raises:
            RoundStateError: not in the ``"swap"`` phase, or an escaped seat.
            ThirteenError: an unknown seat, or ``n`` out of range; TypeError: ``n`` is
                not an integer.
        """
        self._need_phase("swap", seat)
        self._need_present(seat)
        if not is_int(n):
            raise TypeError(f"n (how many hints) must be an integer, got {short(n)}")
        if not 1 <= n <= MAX_GIFT_TOP:
            raise ThirteenError(
                f"n (how many hints) must be 1 to {MAX_GIFT_TOP}, got {short(n)}"
            )
        best = _gift(
            self.hand(seat),
            self._rules,
            players=self._table_size(),
            banker=self._is_banker(seat),
            seed=self._gift_seed(seat),
            top=n,
        )
        return [Gift(best.cards, best.expected), *best.alternatives]

    def finish_swap(
        self, hands: Optional[Sequence[CardsLike]] = None, *, auto_missing: bool = False
    ) -> None:
        """Ends swap-three: disconnected seats that have not given give what the engine
        chooses (代打, reason ``"disconnect"``, :func:`thirteen.gift`), and with
        ``auto_missing`` the other seats that have not given too (reason ``"timeout"``);
        seats that have not given otherwise (and escaped seats) give nothing. The given
        cards are pooled, shuffled with the round's seed (:func:`thirteen.swap_cards`) and
        each seat draws back as many as it gave. Or each seat holds ``hands``, a swap made
        before (then no gift is chosen: the gifts are the ones recorded). Moves to
        ``"arrange"``.

        Args:
            hands: ``None`` to shuffle; or each seat's cards after a swap made before (a
                replay, a save), which must be the seed's swap of the gifts in a seeded
                round, and otherwise a swap of them (each seat keeps what it did not give).
            auto_missing: the engine gives for the seats that have not given.

        Raises:
            RoundStateError: not in the ``"swap"`` phase.
            CountError: ``hands`` has not one hand per seat.
            DealError: ``hands`` is not such a swap (``key = "hands"``).
            CardError: unreadable card text in ``hands``.
        """
        self._need_phase("swap")
        assert self._hands is not None
        chosen: Dict[int, Tuple[Tuple[Card, ...], str]] = {}
        if hands is None:
            for s in self.present:
                if self._given[s] is None and (auto_missing or s in self._disconnected):
                    reason = "disconnect" if s in self._disconnected else "timeout"
                    chosen[s] = (self._engine_gift(s), reason)
        gifts = list(self._given)
        for s, (cards, _) in chosen.items():
            gifts[s] = cards
        given = [
            list(g) if g is not None and s not in self._escaped else []
            for s, g in enumerate(gifts)
        ]
        if hands is None:
            new = [tuple(h) for h in _core.swap_cards(self._hands, given, self._rules, self._seed)]
        else:
            new = checked_swap(self._rules, self._seed, self._hands, given, hands)
        self._hands = new
        for s, (cards, reason) in chosen.items():
            self._given[s] = cards
            self._auto_given[s] = reason
        for s in self._escaped:
            self._given[s] = None
        self._phase = "arrange"

    def submit(self, seat: int, submission: Union[Submission, Mapping[str, Any]]) -> None:
        """Records the seat's play: an :class:`Arrangement` (front 3 | middle 5 | back 5)
        or a :class:`Declaration` of a special hand (报到), or the same as a dict
        (``{"front", "middle", "back"}`` / ``{"special", "cards"}``, card text).

        Validated first (RULES.md 1, 4, 5); nothing is recorded when it raises. The 13
        cards must be the seat's hand (13 of its 16 with ``rules.dealt = 16``).

        Raises:
            RoundStateError: not in the ``"arrange"`` phase, or the seat escaped,
                surrendered or already submitted.
            CountError: not 13 cards (``player`` = seat).
            DuplicateCardError: a card more often than the deck has it (``player`` = seat).
            CardNotHeldError: a card the seat does not hold.
            FouledError: a fouled arrangement (相公 / 倒水) under ``foul = "reject"``
                (``player`` = seat).
            FalseSpecialError: a declaration the cards do not support.
            TypeError: not a submission.
        """
        self._need_open(seat)
        sub = submission_from(submission, self._rules)
        self._validate(seat, sub)
        self._subs[seat] = sub

    def hints(self, seat: int, n: int = 5) -> List[Hint]:
        """Hints for the seat (牌型提示): up to ``n`` good, distinct plays, best first, a
        held special's declaration among them, and under rules that allow surrender
        surrendering where it ranks (:func:`thirteen.hints`). In the ``"swap"`` phase these
        are plays of the cards as dealt; :meth:`gift_hints` says what to give.

        Args:
            seat: the round seat.
            n: how many hints, 1 to :data:`MAX_HINTS`.

        Raises:
            RoundStateError: before :meth:`deal`.
            ThirteenError: an unknown seat, or ``n`` out of range; TypeError: ``n`` is
                not an integer.
        """
        hand = self.hand(seat)
        if not is_int(n):
            raise TypeError(f"n (how many hints) must be an integer, got {short(n)}")
        if not 1 <= n <= MAX_HINTS:
            raise ThirteenError(f"n (how many hints) must be 1 to {MAX_HINTS}, got {short(n)}")
        return _hints(
            hand, self._rules, players=self._table_size(), n=n, banker=self._is_banker(seat)
        )

    def auto(
        self,
        seat: int,
        reason: str = "timeout",
        *,
        play: Union[Submission, Mapping[str, Any], CardsLike, None] = None,
    ) -> AutoPlay:
        """The engine decides for the seat (代打, RULES.md 7.3–7.4), or ``play`` is recorded
        in its place, with the reason.

        In the ``"swap"`` phase (swap-three, 换三张) the seat gives what :func:`thirteen.gift`
        chooses (replacing an earlier gift; :attr:`auto_given` records the reason), or
        ``play``: cards, as :meth:`give` takes them. In the ``"arrange"`` phase it plays
        :func:`thirteen.solve`'s play (strategy :data:`~thirteen.game.decisions.AI_STRATEGY`,
        ``"mc"``; a special is declared when that scores better), or surrenders where the rules allow it and surrendering loses less
        (:attr:`thirteen.Solution.surrenders`); or ``play``: a submission in any form
        :meth:`submit` takes, or ``"surrender"``. :attr:`auto_reasons` records the reason.

        Args:
            seat: the round seat.
            reason: ``"timeout"`` (ran out of time) or ``"disconnect"`` (断线).
            play: ``None`` for the engine's choice; or the choice made for the seat
                elsewhere (a replay of a save, a server's own engine), checked as
                :meth:`give`, :meth:`submit` or :meth:`surrender` check it.

        Returns:
            The cards given (a tuple) in the ``"swap"`` phase; else the recorded
            :class:`Arrangement` or :class:`Declaration`, or ``"surrender"``.

        Raises:
            RoundStateError: as :meth:`give` or :meth:`submit`; ThirteenError: an unknown
                reason; the errors of :meth:`give`, :meth:`submit` or :meth:`surrender`
                for a bad ``play``.
        """
        if reason not in AUTO_REASONS:
            raise ThirteenError(
                f"auto reason must be one of {list(AUTO_REASONS)}, got {short(reason)}"
            )
        if self._phase == "swap":
            self._need_present(seat)
            if play is None:
                cards = self._engine_gift(seat)
            else:
                cards = self._checked_gift(seat, play)  # type: ignore[arg-type]
            self._given[seat] = cards
            self._auto_given[seat] = reason
            return cards
        self._need_open(seat)
        choice: Play
        if play is None:
            choice = self._play_for(seat)
        elif isinstance(play, str) and play == SURRENDER:
            self._need_surrender_allowed(seat)
            choice = SURRENDER
        else:
            choice = submission_from(play, self._rules)
        if isinstance(choice, str):
            self._surrendered.add(seat)
        else:
            self._validate(seat, choice)
            self._subs[seat] = choice
        self._auto[seat] = reason
        return choice

    def surrender(self, seat: int) -> None:
        """The seat surrenders (Western rule sets, RULES.md 5 step 1): it pays
        ``rules.surrender.units`` to each seat that did not, and nothing else is scored
        for it. Instead of a submission.

        Raises:
            SurrenderError: the rules do not allow surrender (``player`` = seat).
            RoundStateError: as :meth:`submit`.
        """
        self._need_surrender_allowed(seat)
        self._need_open(seat)
        self._surrendered.add(seat)

    def _need_surrender_allowed(self, seat: int) -> None:
        if not self._rules.surrender.allowed:
            raise SurrenderError(
                f"seat {seat}: the rule set {short(self._rules.name)} does not allow surrender",
                player=seat,
            )

    def disconnect(self, seat: int) -> None:
        """Marks the seat disconnected (断线): if it has not submitted when the round is
        settled, it is auto-arranged (代打, reason ``"disconnect"``).

        Raises:
            RoundStateError: before :meth:`deal` or after settlement, or an escaped seat.
        """
        self._seat(seat)
        if self._phase not in ("swap", "arrange"):
            raise RoundStateError(
                f"seat {seat} cannot disconnect in phase {short(self._phase)}",
                player=seat,
                phase=self._phase,
            )
        self._need_present(seat)
        self._disconnected.add(seat)

    def reconnect(self, seat: int) -> None:
        """The seat is back (断线重连): it plays for itself again (a submission already
        made for it stays).

        Raises:
            RoundStateError: the seat is not disconnected, or the round is settled.
        """
        self._seat(seat)
        if self._phase == "settled" or seat not in self._disconnected:
            raise RoundStateError(
                f"seat {seat} is not disconnected from a running round",
                player=seat,
                phase=self._phase,
            )
        self._disconnected.discard(seat)

    def escape(self, seat: int) -> None:
        """The seat leaves mid-round (逃跑 / 强退, RULES.md 5 "Escape").

        With an ``escape`` rule the seat is removed from the settlement (its submission,
        if any, is dropped) and pays the penalty when the round is settled
        (:func:`thirteen.escape_payments`). Without one it is treated as disconnected and
        auto-arranged (代打, reason ``"disconnect"``; at once in the ``"arrange"`` phase,
        at settlement when it leaves during the swap).

        Raises:
            RoundStateError: not in the ``"swap"`` or ``"arrange"`` phase, the seat already
                escaped, or it is the last seat still in.
        """
        self._seat(seat)
        if self._phase not in ("swap", "arrange"):
            raise RoundStateError(
                f"seat {seat} cannot leave in phase {short(self._phase)}",
                player=seat,
                phase=self._phase,
            )
        self._need_present(seat)
        if self._rules.escape is None:
            choice: Optional[Play] = None
            waiting = self._subs[seat] is None and seat not in self._surrendered
            if self._phase == "arrange" and waiting:
                choice = self._play_for(seat)
                if not isinstance(choice, str):
                    self._validate(seat, choice)
            self._disconnected.add(seat)
            if isinstance(choice, str):
                self._surrendered.add(seat)
            elif choice is not None:
                self._subs[seat] = choice
            if choice is not None:
                self._auto[seat] = "disconnect"
            return
        if len(self.present) <= 1:
            raise RoundStateError(
                f"seat {seat} is the last seat in the round and cannot escape: "
                "at least one seat must stay",
                player=seat,
                phase=self._phase,
            )
        self._escaped.append(seat)
        self._subs[seat] = None
        self._auto[seat] = None
        self._surrendered.discard(seat)
        self._disconnected.discard(seat)

    def settle(
        self,
        *,
        auto_missing: bool = False,
        balances: Optional[Sequence[int]] = None,
        min_balance: Optional[int] = None,
    ) -> RoundResult:
        """Settles the round (RULES.md 5) and moves to ``"settled"``.

        Every seat still in must have submitted or surrendered; disconnected seats that
        have not are auto-arranged (reason ``"disconnect"``), and with ``auto_missing``
        the other missing seats too (reason ``"timeout"``), as :meth:`auto` plays (a seat
        surrenders where the rules allow it and that loses less). Escaped seats are left out of
        the showdown and pay their escape penalty. Money is :func:`thirteen.money` of the
        units (escape payments included) with the round's stake and rake.

        Args:
            auto_missing: auto-arrange (代打) the seats that have not submitted.
            balances: each seat's balance before the round (ints, minor currency units),
                to report balances after and bankrupt seats; ``None``: not reported.
            min_balance: a seat whose balance after the round is below this is bankrupt
                (破产); ``None``: 1.

        Returns:
            The :class:`RoundResult` (also kept as :attr:`result`).

        Raises:
            RoundStateError: not in the ``"arrange"`` phase, or seats missing.
            CountError / ThirteenError: bad balances or min_balance.
        """
        self._need_phase("arrange")
        n = self.seats
        if balances is not None:
            balances = one_per_seat("balances", balances, n)
            for seat, value in enumerate(balances):
                if not is_int(value):
                    raise ThirteenError(
                        f"balance of seat {seat} must be an integer, got {short(value)}"
                    )
        if min_balance is not None and not is_int(min_balance):
            raise ThirteenError(f"min_balance must be an integer or None, got {short(min_balance)}")
        floor = 1 if min_balance is None else int(min_balance)

        missing = self.missing
        reasons: Dict[int, str] = {}
        left = []
        for seat in missing:
            if seat in self._disconnected:
                reasons[seat] = "disconnect"
            elif auto_missing:
                reasons[seat] = "timeout"
            else:
                left.append(seat)
        if left:
            raise RoundStateError(
                f"seats {left} have not submitted "
                "(settle with auto_missing=True to auto-arrange them)",
                player=left[0],
                phase=self._phase,
            )
        subs = list(self._subs)
        auto = list(self._auto)
        surrendered = set(self._surrendered)
        for seat, reason in reasons.items():
            choice = self._play_for(seat)
            if isinstance(choice, str):
                surrendered.add(seat)
            else:
                self._validate(seat, choice)
                subs[seat] = choice
            auto[seat] = reason

        result = self._outcome(subs, auto, surrendered, balances, floor)
        # Commit: nothing above changed the round.
        self._subs = subs
        self._auto = auto
        self._surrendered = surrendered
        self._result = result
        self._phase = "settled"
        return result

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> Dict[str, Any]:
        """The whole state as plain data (JSON-ready): ``rules`` as
        :meth:`RuleSet.to_dict`, cards as text, submissions as ``{"front", "middle",
        "back"}`` or ``{"special", "cards"}``, per-seat lists with ``None`` for nothing."""
        deal = None
        if self._dealt is not None:
            deal = {
                "hands": [cards_text(h) for h in self._dealt],
                "cut_card": None if self._cut_card is None else str(self._cut_card),
                "cut_start": self._cut_start,
                "first": self._first,
            }
        return {
            "format": _ROUND_FORMAT,
            "rules": self._rules.to_dict(),
            "players": list(self._players),
            "stakes": None if self._stakes is None else list(self._stakes),
            "banker": self._banker,
            "seed": self._seed,
            "stake": self._stake,
            "rake": None if self._rake is None else list(self._rake),
            "phase": self._phase,
            "deal": deal,
            "hands": None if self._hands is None else [cards_text(h) for h in self._hands],
            "given": [None if g is None else cards_text(g) for g in self._given],
            **({"auto_given": list(self._auto_given)} if any(self._auto_given) else {}),
            "submissions": [None if s is None else submission_to_dict(s) for s in self._subs],
            "auto": list(self._auto),
            "surrendered": sorted(self._surrendered),
            "escaped": list(self._escaped),
            "disconnected": sorted(self._disconnected),
            "result": None if self._result is None else self._result.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        """The round :meth:`to_dict` wrote, in the same state: its shape is read
        (:class:`thirteen.game.saves.RoundSave`) and the round is played again through
        these methods as the save records it (:mod:`thirteen.game.replay`: the deal, the
        swap, escapes, surrenders, plays, and the result settled again), so a save
        loads only if play could have reached it.

        Raises:
            SaveError: a bad save; ``key`` names the field.
        """
        return round_from(cls, data)

    def __repr__(self) -> str:
        return (
            f"<Round {self._rules.name} seats={self.seats} phase={self._phase} "
            f"seed={self._seed}>"
        )

    # ------------------------------------------------------------------ internals

    def _seat(self, seat: Any) -> int:
        if not is_int(seat) or not 0 <= seat < self.seats:
            raise ThirteenError(
                f"seat {short(seat)} is not a seat of this {self.seats}-player round"
            )
        return int(seat)

    def _need_phase(self, phase: str, seat: Optional[int] = None) -> None:
        if self._phase != phase:
            raise RoundStateError(
                f"the round is in phase {short(self._phase)}, not {short(phase)}",
                player=seat,
                phase=self._phase,
            )

    def _need_present(self, seat: int) -> None:
        self._seat(seat)
        if seat in self._escaped:
            raise RoundStateError(f"seat {seat} has left the round", player=seat, phase=self._phase)

    def _need_open(self, seat: int) -> None:
        """The seat may still submit: phase arrange, still in, no submission, no surrender."""
        self._seat(seat)
        self._need_phase("arrange", seat)
        self._need_present(seat)
        if seat in self._surrendered:
            raise RoundStateError(f"seat {seat} has surrendered", player=seat, phase=self._phase)
        if self._subs[seat] is not None:
            raise RoundStateError(
                f"seat {seat} has already submitted", player=seat, phase=self._phase
            )

    def _check_held(self, seat: int, cards: Sequence[Card]) -> None:
        """Every card is in the seat's own hand, as often as sent. The refusal depends on
        the seat's hand and what it sent only: it never says whether or where another seat
        holds the card (a player must not learn other hands by probing)."""
        assert self._hands is not None
        held = Counter(self._hands[seat])
        for card, count in Counter(cards).items():
            if count > held.get(card, 0):
                times = "" if count == 1 else f" {count} times"
                raise CardNotHeldError(
                    f"seat {seat} does not hold {card}{times}", card=str(card), player=seat
                )

    def _validate(self, seat: int, sub: Submission) -> None:
        cards = list(sub.cards)
        try:  # 13 cards, none more often than the deck has it: the core's check, seat named
            _core.validate_hand(cards, self._rules)
        except CountError as exc:
            raise CountError(
                f"seat {seat}: {exc.message}", expected=exc.expected, got=exc.got, player=seat
            ) from None
        except DuplicateCardError as exc:
            raise DuplicateCardError(
                f"seat {seat}: {exc.message}", card=exc.card, player=seat
            ) from None
        self._check_held(seat, cards)
        if isinstance(sub, Arrangement):
            if self._rules.foul == "reject" and _core.is_foul(sub, self._rules):
                raise FouledError(
                    f"seat {seat}: the arrangement is fouled "
                    "(相公: front <= middle <= back is broken)",
                    player=seat,
                )
        else:
            held = list(_core.held_specials(cards, self._rules))
            if sub.special is not None and sub.special not in held:
                what = f"{short(sub.special)}, which its cards do not hold"
            elif not held:
                what = "a special hand but holds none"
            else:
                return
            raise FalseSpecialError(f"seat {seat} declares {what}", player=seat, special=sub.special)

    def _is_banker(self, seat: int) -> bool:
        return self._rules.mode == "banker" and seat == self._banker

    def _table_size(self) -> int:
        m = len(self.present)
        return m if m in self._rules.players else self.seats

    def _play_for(self, seat: int) -> Play:
        """The engine's play for the seat: a submission, or ``"surrender"``."""
        return engine_play(
            self._rules, self.hand(seat), players=self._table_size(), banker=self._is_banker(seat)
        )

    def _gift_seed(self, seat: int) -> int:
        return gift_seed(self._seed, seat)

    def _engine_gift(self, seat: int) -> Tuple[Card, ...]:
        """The engine's swap-three gift for the seat."""
        return engine_gift(
            self._rules,
            self.hand(seat),
            players=self._table_size(),
            banker=self._is_banker(seat),
            seed=self._gift_seed(seat),
        )

    def _checked_gift(self, seat: int, cards: CardsLike) -> Tuple[Card, ...]:
        """``cards`` as a gift of the seat: at most ``max_cards``, each held (RULES.md 7.3)."""
        given = cards_of(cards)
        assert self._rules.swap is not None and self._hands is not None
        limit = self._rules.swap.max_cards
        if len(given) > limit:
            raise CountError(
                f"seat {seat} gives {len(given)} cards; swap-three allows at most {limit}",
                expected=limit,
                got=len(given),
                player=seat,
            )
        self._check_held(seat, given)
        return tuple(given)

    def _showdown(
        self, subs: List[Optional[Submission]], surrendered: Set[int]
    ) -> Tuple[Optional[Dict[str, Any]], List[int], List[int]]:
        """The settlement of the seats still in (as a dict), and per seat the showdown's
        units and the escape payments: :func:`thirteen.settle_round`, whose core holds the
        rules of several leavers and of a home run after an escape (RULES.md 5)."""
        assert self._hands is not None
        table: List[Optional[Submission]] = []
        for s in range(self.seats):
            if s in self._escaped:
                table.append(None)
            elif s in surrendered:
                h = self._hands[s][:13]
                table.append(Arrangement(h[:3], h[3:8], h[8:13], self._rules))
            else:
                table.append(subs[s])
        settlement, results, escape = _core.settle_round(
            table,
            self._rules,
            escaped=list(self._escaped),
            banker=self._banker,
            stakes=None if self._stakes is None else list(self._stakes),
            surrendered=sorted(surrendered),
        )
        shown = None if settlement is None else settlement.to_dict()
        return shown, list(results), list(escape)

    def _outcome(
        self,
        subs: List[Optional[Submission]],
        auto: List[Optional[str]],
        surrendered: Set[int],
        balances: Optional[Sequence[int]],
        floor: int,
    ) -> RoundResult:
        """The result of settling these submissions and surrenders (nothing changes)."""
        n = self.seats
        present = list(self.present)
        settlement, results, escape = self._showdown(subs, surrendered)
        units = [r + e for r, e in zip(results, escape)]
        money = list(_core.money(units, self._stake, self._rake))
        rake = [u * self._stake - m for u, m in zip(units, money)]
        after: Optional[Tuple[int, ...]] = None
        bankrupt: Tuple[int, ...] = ()
        if balances is not None:
            after = tuple(b + m for b, m in zip(balances, money))
            bankrupt = tuple(s for s in range(n) if after[s] < floor)
        return RoundResult(
            players=self._players,
            settlement=settlement,
            settled_seats=tuple(present),
            results=tuple(results),
            escape=tuple(escape),
            units=tuple(units),
            money=tuple(money),
            rake=tuple(rake),
            stake=self._stake,
            balances=after,
            bankrupt=bankrupt,
            auto=tuple(auto),
            escaped=tuple(self._escaped),
            surrendered=tuple(sorted(surrendered)),
        )

