"""Group commit: the changes of several rooms that arrive together are written in one
database transaction, before any of them is answered.

A room hands its change (:class:`~thirteen.server.store.Change`) to :meth:`Committer.commit`
and waits. The committer runs one batch at a time on the database thread: every change
queued since the last batch started, in one transaction (:meth:`Store.commit_many`), each
change all or nothing within it. When the transaction is committed each change's waiter
gets its new version, or the refusal of its own change (a stale version, a round settled
before, an account that cannot pay); a transaction that fails as a whole fails them all.
Nothing is answered or broadcast before the transaction holding it has committed, so a
crash loses only changes nobody was told of. While a batch is written the next one fills:
the busier the server, the more changes a transaction carries.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import List, Optional, Tuple, Union

from thirteen.server.store import Change, Store, StoreError

__all__ = ["Committer"]

log = logging.getLogger("thirteen.server")

_Waiting = Tuple[Change, "asyncio.Future[int]"]


class Committer:
    """Writes rooms' changes in batches (see the module doc).

    Args:
        store: the database.
        executor: where the batches run (the database thread).
    """

    def __init__(self, store: Store, executor: Executor) -> None:
        self.store = store
        self.executor = executor
        self.pending: List[_Waiting] = []
        self.busy = False
        self.batches = 0
        self.changes = 0

    async def commit(self, change: Change) -> int:
        """Writes ``change`` with the others that arrive with it; returns the room's new
        version once the transaction holding it has committed.

        Raises:
            StoreError: the change was refused (its subclass says why); nothing of it was
                written.
        """
        loop = asyncio.get_running_loop()
        future: "asyncio.Future[int]" = loop.create_future()
        self.pending.append((change, future))
        if not self.busy:
            self.busy = True
            loop.call_soon(self._next)  # the changes of this turn of the loop join it
        return await future

    def _next(self) -> None:
        if not self.pending:
            self.busy = False
            return
        batch, self.pending = self.pending, []
        loop = asyncio.get_running_loop()
        done = loop.run_in_executor(self.executor, self.store.commit_many, [c for c, _ in batch])
        done.add_done_callback(lambda f: self._finished(batch, f))

    def _finished(self, batch: List[_Waiting], done: "asyncio.Future[List[Union[int, StoreError]]]") -> None:
        self.batches += 1
        self.changes += len(batch)
        error: Optional[BaseException] = done.exception()
        if error is not None:
            log.warning("a group commit of %d changes failed: %s", len(batch), error)
            failure = error if isinstance(error, StoreError) else StoreError(f"the database failed: {error}")
            for _, future in batch:
                if not future.done():
                    future.set_exception(failure)
        else:
            for (_, future), outcome in zip(batch, done.result()):
                if future.done():
                    continue
                if isinstance(outcome, StoreError):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
        self._next()
