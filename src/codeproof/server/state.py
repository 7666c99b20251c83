"""Everything one server process holds, built once and shared by the HTTP API, the web
page and the MCP tools."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from codeproof.core.config import Settings
from codeproof.server.auth import Auth, SessionStore
from codeproof.server.db import ServerDB
from codeproof.server.engine import Engine
from codeproof.server.events import EventLog
from codeproof.server.queue import Execute, InProcessQueue, RunQueue
from codeproof.server.service import Service
from codeproof.server.threads import ThreadStore
from codeproof.server.tokens import TokenStore
from codeproof.server.worker import Executor

logger = logging.getLogger(__name__)

QueueFactory = Callable[[Execute, int], RunQueue]


@dataclass
class ServerState:
    """The server's parts; :meth:`start` and :meth:`stop` bracket its life."""

    engine: Engine
    db: ServerDB
    tokens: TokenStore
    auth: Auth
    threads: ThreadStore
    events: EventLog
    queue: RunQueue
    service: Service
    started: float = field(default_factory=time.time)

    @property
    def settings(self) -> Settings:
        return self.engine.settings

    @classmethod
    def build(cls, engine: Engine, queue: QueueFactory | None = None) -> ServerState:
        """Wire the parts (nothing is opened or started yet)."""
        db = ServerDB(engine.settings.runs_dir)
        tokens = TokenStore(db)
        auth = Auth(tokens, SessionStore(db), require=engine.settings.server.require_auth)
        threads = ThreadStore(db)
        events = EventLog(db)
        holder: list[RunQueue] = []
        executor = Executor(engine, threads, events, stopping=lambda: holder[0].stopping)
        make = queue or InProcessQueue
        holder.append(make(executor, engine.workers))
        service = Service(engine, threads, events, holder[0])
        return cls(engine, db, tokens, auth, threads, events, holder[0], service)

    def start(self) -> None:
        """Open the database, start the workers, and run again what a previous process
        left unfinished."""
        self.db.open()
        self.service.open()
        self.queue.start()
        recovered = self.service.recover()
        if recovered:
            logger.warning("continuing %d run(s) left unfinished: %s", len(recovered), recovered)

    def stop(self) -> None:
        """Pause the running runs at their next step, or in their model call (they
        continue at the next start)."""
        self.engine.interrupt()
        if self.queue.stop():
            self.engine.close()
        else:  # a worker is inside a model call: the process exit ends it, not a close
            logger.warning("a run is still in a step; it continues at the next start")
        self.service.close()
        self.db.close()
