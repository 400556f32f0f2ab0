"""The server's database: a round pays out once, whoever tries twice (two workers on one
SQLite file, a retry), and a refused change leaves nothing behind."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("msgspec")

from thirteen import RuleSet, Table  # noqa: E402
from thirteen.server.store import (  # noqa: E402
    HOUSE,
    AlreadySettled,
    InsufficientFunds,
    Move,
    StaleState,
    Store,
)


def ready_room(url: str) -> tuple:
    """A room saved with two seated players whose round is dealt and played."""
    store = Store(url)
    store.new_player("ann", "Ann", "human", 10_000)
    store.new_player("bo", "Bo", "human", 10_000)
    table = Table(RuleSet.preset("kaixin"), seats=2, stake=10, rake=(10, None))
    table.sit("ann", balance=10_000)
    table.sit("bo", balance=10_000)
    store.create_room("r", {}, table.to_json())
    v = store.commit("r", 1, table.to_json(), deadline=None, moves=[Move("ann", -10_000, "sit"), Move("bo", -10_000, "sit")])
    rnd = table.start_round(seed=11)
    rnd.auto(0)
    rnd.auto(1)
    v = store.commit("r", v, table.to_json(), deadline=None)
    return store, v


def prepare(store: Store) -> dict:
    """What a worker computes: read the room, settle its round in memory."""
    saved = store.room("r")
    assert saved is not None
    table = Table.from_json(saved.state)
    report = table.finish_round()
    rake = sum(report.result.rake)
    return {
        "report": report,
        "rake": rake,
        "state": table.to_json(),
        "moves": [Move(HOUSE, rake, "rake")] if rake else [],
        "round_no": table.rounds_played,
    }


def commit(store: Store, version: int, change: dict) -> None:
    """What a worker then commits: the state, the money and the settlement row at once."""
    store.commit(
        "r", version, change["state"], deadline=None, moves=change["moves"],
        round_no=change["round_no"], settlement=change["report"].to_dict(),
    )


def settle(store: Store, version: int) -> tuple:
    change = prepare(store)
    commit(store, version, change)
    return change["report"], change["rake"]


def conserved(store: Store) -> bool:
    saved = store.room("r")
    table = Table.from_json(saved.state)
    seated = sum(table.balance(p) for p in table.players)
    return store.account_total() + seated == store.minted()


def test_two_workers_settle_a_round_once(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    store, version = ready_room(url)
    workers = [Store(url), Store(url)]
    outcomes: list = []
    both_read = threading.Barrier(2)

    def work(s: Store) -> None:
        change = prepare(s)  # both read the room with its round in progress ...
        both_read.wait()
        try:  # ... and both try to commit its settlement
            commit(s, version, change)
            outcomes.append((change["report"], change["rake"]))
        except StaleState as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    paid = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(paid) == 1 and len(outcomes) == 2
    report, rake = paid[0]
    assert store.settlement_count("r") == 1
    assert store.balance(HOUSE) == rake
    # rake 10% of each winner's money, floored (RULES.md 5 "Money"); the loser pays in full
    winner = max(report.money, key=lambda p: report.money[p])
    assert rake == (report.units[winner] * 10) // 10
    assert conserved(store)
    for s in workers:
        s.close()


def test_a_retry_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    store, version = ready_room(url)
    change = prepare(store)
    commit(store, version, change)
    house = store.balance(HOUSE)
    with pytest.raises(StaleState):
        commit(store, version, change)  # the same change again, as after a lost reply
    assert store.settlement_count("r") == 1 and store.balance(HOUSE) == house
    assert conserved(store)


def test_the_unique_settlement_holds_even_at_the_current_version(tmp_path):
    """A worker that passes the version check (it read the room after the settlement) but
    settles the same round number again is stopped by the database's unique constraint,
    and its whole change is rolled back."""
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    store, version = ready_room(url)
    settle(store, version)
    saved = store.room("r")
    house = store.balance(HOUSE)
    with pytest.raises(AlreadySettled):
        store.commit(
            "r", saved.version, saved.state, deadline=None, moves=[Move(HOUSE, 999, "rake")],
            round_no=1, settlement={"again": True},
        )
    again = store.room("r")
    assert (again.version, again.state) == (saved.version, saved.state)
    assert store.balance(HOUSE) == house


def test_an_account_cannot_pay_more_than_it_holds(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    store = Store(url)
    store.new_player("cy", "Cy", "human", 500)
    table = Table(RuleSet.preset("kaixin"), seats=2)
    saved = store.create_room("r", {}, table.to_json())
    table.sit("cy", balance=600)
    with pytest.raises(InsufficientFunds):
        store.commit("r", saved.version, table.to_json(), deadline=None, moves=[Move("cy", -600, "sit")])
    assert store.room("r").version == saved.version and store.balance("cy") == 500
