"""Settings of a room of ``thirteen serve`` (saved with the room, so a restart keeps them)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import zlib

import msgspec

from thirteen import RuleSet, Table

__all__ = ["RoomConfig"]


class RoomConfig(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """How a room plays. Money is in minor currency units (e.g. cents), times in seconds.

    Attributes:
        rules: a preset name (RULES.md 6) or a rule-set dict (:meth:`RuleSet.from_dict`).
        seats: table seats, 2..4 (``None``: the most the rules allow).
        ai: AI seats that fill free seats when a round starts (at least one person must
            be seated for a round to start).
        stake: money per unit (注).
        rake: ``[percent, cap]`` (服务费; cap may be ``None``), or ``None``.
        min_balance: the room minimum: needed to sit; below it after a round is bankrupt
            (破产) and stands up.
        starting_balance: money minted into a new player's account.
        ai_bankroll: money an AI seat brings.
        arrange_seconds: the arrange clock; a seat still arranging then is auto-arranged
            (代打), a disconnected one (断线) too.
        swap_seconds: the swap-three clock (换三张 rule sets).
        pause_seconds: the pause between rounds (to watch the reveal).
        grace_seconds: a seated person offline this long between rounds is stood up
            before the next deal.
        seed: rounds are dealt with :meth:`round_seed` (reproducible rooms, for tests and
            replays: anyone who knows it knows every hand, so never in play for money);
            ``None``: the secure random source.
        money_ladder / points_ladder: the level ladders (RULES.md 8).
    """

    rules: Union[str, Dict[str, Any]] = "kaixin"
    seats: Optional[int] = None
    ai: int = 3
    stake: int = 100
    rake: Optional[List[Any]] = None
    min_balance: int = 100
    starting_balance: int = 100_000
    ai_bankroll: int = 100_000
    arrange_seconds: float = 60.0
    swap_seconds: float = 20.0
    pause_seconds: float = 6.0
    grace_seconds: float = 30.0
    seed: Optional[int] = None
    money_ladder: str = "bianfeng-money"
    points_ladder: str = "bianfeng-points"

    def round_seed(self, room: str, number: int) -> Optional[int]:
        """The seed of round ``number`` (1, 2, ...) of ``room``: ``seed + number +
        crc32(room) * 2**32`` modulo 2**64, so that rooms deal differently; ``None``
        without a seed."""
        if self.seed is None:
            return None
        return (self.seed + number + (zlib.crc32(room.encode("utf-8")) << 32)) % 2**64

    def rule_set(self) -> RuleSet:
        """The :class:`RuleSet` (RuleSetError when invalid)."""
        if isinstance(self.rules, str):
            return RuleSet.preset(self.rules)
        return RuleSet.from_dict(self.rules)

    def new_table(self) -> Table:
        """An empty :class:`Table` with these settings (raises the Table's errors)."""
        return Table(
            self.rule_set(),
            seats=self.seats,
            stake=self.stake,
            rake=None if self.rake is None else (self.rake[0], self.rake[1]),
            min_balance=self.min_balance,
            money_ladder=self.money_ladder,
            points_ladder=self.points_ladder,
        )

    def to_dict(self) -> Dict[str, Any]:
        """Plain data."""
        data: Dict[str, Any] = msgspec.to_builtins(self)
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "RoomConfig":
        """Settings from plain data (msgspec.ValidationError on bad fields)."""
        return msgspec.convert(data, cls)
