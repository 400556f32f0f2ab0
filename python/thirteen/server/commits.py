"""Group commit: the changes of several rooms that arrive together are written in one
database transaction, before any of them is answered.

A room applies a change in memory and, in the same step (no ``await`` between), stages it
in its :class:`Journal` with the money it moves (and, when a round ends, its settlement);
the caller then waits for the journal's future. The :class:`Committer` writes one batch at
a time on the database thread: for every room with staged changes, the room's state as it
is then (one snapshot, however many changes it holds) with all their money moves, in one
transaction (:meth:`Store.commit_many`), each room's part all or nothing. When the
transaction has committed, each room learns its new version, sends its ``state`` once for
all the changes the snapshot held, and its waiters are answered; a room whose part was
refused (a stale version, a round settled before, an account that cannot pay) is read
back from the database and its waiters get the refusal, as do the changes it staged on
top meanwhile. Nothing is answered or broadcast before the transaction holding it has
committed, so a crash loses only changes nobody was told of. While a batch is written the
next one fills: the busier the server, the more changes a transaction carries.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import logging
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence, Set, Tuple, Union

from thirteen.server.store import Change, Move, Store, StoreError

__all__ = ["Committer", "Journal", "Staged"]

log = logging.getLogger("thirteen.server")


@dataclass
class Staged:
    """Changes of one room applied in memory and not yet handed to the database: their
    money ``moves``, the ``settlement`` of a round they ended (``(round_no, json)``), what
    to send once they are saved (``frames`` to everyone first, then, with ``publish``, the
    room's ``state`` and ``you`` frames: to every player whose view may have changed when
    ``full``, else to the players of ``you`` only), and the ``future`` their callers wait
    for."""

    future: "asyncio.Future[int]"
    moves: List[Move] = field(default_factory=list)
    settlement: Optional[Tuple[int, str]] = None
    frames: List[Any] = field(default_factory=list)
    publish: bool = False
    full: bool = False
    you: Set[str] = field(default_factory=set)


@dataclass(eq=False)
class Journal:
    """A room's staged changes and saved version (see the module doc).

    Args:
        committer: the process's committer.
        room: the room's id.
        version: the saved version the room was read at.
        snapshot: the room's state now, as ``(Table.to_json text, clock deadline)``.
        saved: called with the new version and the staged changes once they are saved
            (the room sends its frames).
        refused: called with the refusal when they are not (the room reads itself back).
    """

    committer: "Committer"
    room: str
    version: int
    snapshot: Callable[[], Tuple[str, Optional[float]]]
    saved: Callable[[int, Staged], None]
    refused: Callable[[BaseException], None]
    staged: Optional[Staged] = field(default=None, init=False)
    writing: Optional[Staged] = field(default=None, init=False)
    #: the lease version every write names (fencing)
    lease: Optional[int] = field(default=None, init=False)

    def stage(
        self,
        moves: Sequence[Move] = (),
        *,
        settlement: Optional[Tuple[int, str]] = None,
        frames: Sequence[Any] = (),
        publish: bool = False,
        full: bool = True,
        you: Sequence[str] = (),
    ) -> "asyncio.Future[int]":
        """Records a change just made in memory (see :class:`Staged` for the arguments);
        returns the future that is done (with the room's new version) once it is saved,
        or raises its refusal."""
        staged = self.staged
        if staged is None:
            staged = self.staged = Staged(asyncio.get_running_loop().create_future())
            self.committer.mark(self)
        staged.moves.extend(moves)
        if settlement is not None:
            assert staged.settlement is None, "two rounds settled in one snapshot"
            staged.settlement = settlement
        staged.frames.extend(frames)
        if publish:
            staged.publish = True
            staged.full = staged.full or full
            staged.you.update(you)
        return staged.future

    def take(self) -> Change:
        """The staged changes as one :class:`Change` (the committer forms a batch)."""
        staged = self.staged
        assert staged is not None and self.writing is None
        self.staged, self.writing = None, staged
        state, deadline = self.snapshot()
        round_no, report = staged.settlement if staged.settlement is not None else (None, None)
        return Change(self.room, self.version, state, deadline, tuple(staged.moves), round_no, report, self.lease)

    def done(self, outcome: Union[int, BaseException]) -> None:
        """The batch holding :meth:`take`'s change is over: ``outcome`` is the new
        version or the refusal."""
        staged, self.writing = self.writing, None
        assert staged is not None
        if isinstance(outcome, BaseException):
            later, self.staged = self.staged, None  # made on top of the refused change
            if later is not None:
                self.committer.unmark(self)
            for group in (staged, later):
                if group is not None and not group.future.done():
                    group.future.set_exception(outcome)
                    group.future.exception()  # retrieved: a caller that left is no error
            self.refused(outcome)
            return
        self.version = outcome
        self.saved(outcome, staged)
        if not staged.future.done():
            staged.future.set_result(outcome)


class Committer:
    """Writes the rooms' staged changes in batches (see the module doc).

    Args:
        store: the database.
        inline: write the batches on the event loop (the default for SQLite: its write is
            CPU work, which a thread would spend as well, plus the hand-over) rather than
            on the committer's own thread (PostgreSQL: the loop must not wait for the
            network).
    """

    def __init__(self, store: Store, *, inline: Optional[bool] = None) -> None:
        self.store = store
        self.inline = store.sqlite if inline is None else inline
        self.dirty: List[Journal] = []
        self._queue: "Optional[queue.SimpleQueue[Any]]" = None
        self.busy = False
        self.batches = 0
        self.changes = 0

    def mark(self, journal: Journal) -> None:
        """``journal`` has staged changes: they go in the next batch."""
        self.dirty.append(journal)
        if not self.busy:
            self.busy = True
            asyncio.get_running_loop().call_soon(self._next)  # this turn's changes join

    def unmark(self, journal: Journal) -> None:
        """``journal``'s staged changes were dropped."""
        if journal in self.dirty:
            self.dirty.remove(journal)

    def _next(self) -> None:
        if not self.dirty:
            self.busy = False
            return
        # Batches run one at a time: no room's earlier change is still being written.
        journals, self.dirty = self.dirty, []
        changes = [j.take() for j in journals]
        if self.inline:
            # SQLite: written here, on the event loop (no thread hand-over: a batch is a
            # few hundred microseconds of CPU that a thread would spend as well).
            outcome: Any
            try:
                outcome = self.store.commit_many(changes)
            except Exception as exc:
                outcome = exc
            asyncio.get_running_loop().call_soon(self._finished, journals, outcome)
            return
        self._thread().put((asyncio.get_running_loop(), journals, changes))

    def _thread(self) -> "queue.SimpleQueue[Any]":
        """The committer's own thread (started on first use): it writes a batch and hands
        the outcome back to the event loop (``call_soon_threadsafe``)."""
        if self._queue is None:
            self._queue = queue.SimpleQueue()
            threading.Thread(target=self._write, args=(self._queue,), name="thirteen-commit", daemon=True).start()
        return self._queue

    def _write(self, jobs: "queue.SimpleQueue[Any]") -> None:
        while True:
            job = jobs.get()
            if job is None:
                return
            loop, journals, changes = job
            outcome: Any
            try:
                outcome = self.store.commit_many(changes)
            except Exception as exc:
                outcome = exc
            try:
                loop.call_soon_threadsafe(self._finished, journals, outcome)
            except RuntimeError:  # the loop is closed: the server is stopping
                return

    def stop(self) -> None:
        """Ends the committer's thread (after the batch it is writing)."""
        if self._queue is not None:
            self._queue.put(None)
            self._queue = None

    def _finished(self, journals: List[Journal], result: Any) -> None:
        self.batches += 1
        self.changes += len(journals)
        if isinstance(result, BaseException):
            log.warning("a group commit of %d rooms failed: %s", len(journals), result)
            failure = result if isinstance(result, StoreError) else StoreError(f"the database failed: {result}")
            outcomes: List[object] = [failure] * len(journals)
        else:
            outcomes = list(result)
        for journal, outcome in zip(journals, outcomes):
            try:
                journal.done(outcome if isinstance(outcome, (int, BaseException)) else StoreError("no outcome"))
            except Exception:  # one room's frames must not stop the others' answers
                log.exception("room %s: after its change was saved", journal.room)
        self._next()

