"""The outcome of a settled round (RULES.md 5): :class:`RoundResult`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Tuple

import msgspec

from thirteen.game import saves

__all__ = ["RoundResult"]


@dataclass(frozen=True)
class RoundResult:
    """The outcome of a settled round (RULES.md 5), per round seat ``0 .. n-1``.

    Attributes:
        players: the player ids, per seat.
        settlement: :meth:`thirteen.Settlement.to_dict` of the showdown (totals, fouls,
            specials, scoops, home runs, pairs, reveal order), or ``None`` when fewer than
            two seats were compared (all but one escaped, or an escaped banker). Its seat
            numbers index :attr:`settled_seats`, not the round's seats.
        settled_seats: the round seats in the showdown, in order (every seat but the
            escaped ones); ``settlement`` seat ``i`` is round seat ``settled_seats[i]``.
        results: units from the showdown, per seat (0 for an escaped seat).
        escape: units of escape payments (逃跑 / 强退), per seat: minus the penalty for a
            leaver, its share for a receiver; never multiplied.
        units: ``results + escape``, per seat (sums to 0).
        money: per seat, in minor currency units: ``units × stake``, less the rake.
        rake: the rake (服务费) taken, per seat (``units × stake − money``, ≥ 0).
        stake: money per unit (minor currency units).
        balances: each seat's balance after the round (``balance + money``), when
            balances were given to :meth:`Round.settle`, else ``None``.
        bankrupt: seats whose balance after the round is below the minimum (破产);
            empty when no balances were given.
        auto: per seat, why it was auto-arranged (代打: ``"timeout"`` or
            ``"disconnect"``), or ``None``.
        escaped: the seats that escaped, in the order they left.
        surrendered: the seats that surrendered, ascending.
    """

    players: Tuple[Any, ...]
    settlement: Optional[Dict[str, Any]]
    settled_seats: Tuple[int, ...]
    results: Tuple[int, ...]
    escape: Tuple[int, ...]
    units: Tuple[int, ...]
    money: Tuple[int, ...]
    rake: Tuple[int, ...]
    stake: int
    balances: Optional[Tuple[int, ...]]
    bankrupt: Tuple[int, ...]
    auto: Tuple[Optional[str], ...]
    escaped: Tuple[int, ...]
    surrendered: Tuple[int, ...]

    def to_dict(self) -> Dict[str, Any]:
        """Plain data (lists, dicts, ints, str, ``None``), JSON-ready."""
        return {
            "players": list(self.players),
            "settlement": msgspec.json.decode(msgspec.json.encode(self.settlement)),
            "settled_seats": list(self.settled_seats),
            "results": list(self.results),
            "escape": list(self.escape),
            "units": list(self.units),
            "money": list(self.money),
            "rake": list(self.rake),
            "stake": self.stake,
            "balances": None if self.balances is None else list(self.balances),
            "bankrupt": list(self.bankrupt),
            "auto": list(self.auto),
            "escaped": list(self.escaped),
            "surrendered": list(self.surrendered),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundResult:
        """The result :meth:`to_dict` wrote, shape-checked (:func:`thirteen.saves.result`);
        its numbers are taken as they are (a saved round checks its result by settling
        again: :meth:`Round.from_dict`).

        Raises:
            SaveError: a field missing, unknown or of the wrong type.
        """
        save = saves.result(data)
        return cls(
            players=tuple(save.players),
            settlement=save.settlement,
            settled_seats=tuple(save.settled_seats),
            results=tuple(save.results),
            escape=tuple(save.escape),
            units=tuple(save.units),
            money=tuple(save.money),
            rake=tuple(save.rake),
            stake=save.stake,
            balances=None if save.balances is None else tuple(save.balances),
            bankrupt=tuple(save.bankrupt),
            auto=tuple(save.auto),
            escaped=tuple(save.escaped),
            surrendered=tuple(save.surrendered),
        )
