"""The index: its registered sources, its embedder, its store, and searching it.

Everything lives in one directory (``retrieval.index_dir``): ``index.json`` (the
sources and which embedder built the vectors; written atomically), the store's files,
and a lock file that keeps two writers apart.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from codeproof.core.config import Settings
from codeproof.core.errors import ConfigError, InputError, RetrievalError
from codeproof.retrieval.embedding import Embedder, get_embedder
from codeproof.retrieval.indexer import IndexStats, Progress, index_source
from codeproof.retrieval.models import Hit, Query, SearchMode, SourceEntry, SourceKind
from codeproof.retrieval.sources import Limits, documents, guess_kind
from codeproof.retrieval.store import Store, open_store

logger = logging.getLogger(__name__)

CATALOG = "index.json"
LOCK = ".lock"
STORE_DIR = "store"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class Catalog(BaseModel):
    """The content of ``index.json``."""

    embedder: str = ""
    dimension: int = 0
    store: str = ""
    sources: list[SourceEntry] = Field(default_factory=list)


def source_name(path: Path) -> str:
    """A default source name from a path (its folder or file name)."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", path.resolve().name).strip("-.") or "source"
    return base[:64]


class Index:
    """The retrieval index in one directory.

    Args:
        directory: The index directory.
        store_name: Which store implementation (:data:`~.store.STORES`).
        embedder: The embedder (must match the one that built the index).
        limits: What listing skips.
    """

    def __init__(
        self, directory: Path, store_name: str, embedder: Embedder, limits: Limits
    ) -> None:
        self.directory = directory
        self.store_name = store_name
        self.embedder = embedder
        self.limits = limits
        self._store: Store | None = None

    @classmethod
    def from_settings(cls, settings: Settings, embedder: Embedder | None = None) -> Index:
        r = settings.retrieval
        return cls(
            settings.index_dir,
            r.store,
            embedder or get_embedder(settings),
            Limits(max_file_bytes=r.max_file_bytes),
        )

    # -- catalog -----------------------------------------------------------------------

    def catalog(self) -> Catalog:
        """The registered sources (an empty catalog when there is no index yet).

        Raises:
            RetrievalError: ``index.json`` is unreadable.
        """
        path = self.directory / CATALOG
        if not path.is_file():
            return Catalog()
        try:
            return Catalog.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValidationError) as exc:
            raise RetrievalError(
                f"cannot read the index catalog {path}: {exc}",
                index_dir=str(self.directory),
                hint="restore the file, or remove the index directory and add the sources again",
            ) from exc

    def sources(self) -> list[SourceEntry]:
        return self.catalog().sources

    def exists(self) -> bool:
        """Whether the index holds at least one source."""
        return bool(self.sources())

    def _save(self, catalog: Catalog) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".index-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(catalog.model_dump_json(indent=2))
        os.replace(tmp, self.directory / CATALOG)

    @contextmanager
    def _locked(self) -> Iterator[Catalog]:
        """Hold the write lock; yield the catalog (saved by the caller)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        with (self.directory / LOCK).open("w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise InputError(
                    f"the index in {self.directory} is being written by another process",
                    hint="wait for the other `codeproof index` to finish",
                ) from exc
            yield self.catalog()

    def _check_embedder(self, catalog: Catalog) -> None:
        if catalog.embedder and catalog.embedder != self.embedder.name:
            raise ConfigError(
                f"the index in {self.directory} was built with the embedder "
                f"{catalog.embedder!r}, not {self.embedder.name!r}",
                hint="set retrieval.embedder back, or use another retrieval.index_dir",
            )

    def store(self) -> Store:
        """The store (opened on first use, with the index's vector dimension)."""
        if self._store is None:
            catalog = self.catalog()
            dimension = catalog.dimension or self.embedder.dimension
            self._store = open_store(self.store_name, self.directory / STORE_DIR, dimension)
        return self._store

    # -- writing -----------------------------------------------------------------------

    def add(
        self,
        path: Path,
        *,
        kind: SourceKind | None = None,
        name: str | None = None,
        progress: Progress | None = None,
    ) -> IndexStats:
        """Register ``path`` as a source and index it.

        Raises:
            InputError: The path does not exist, the name is invalid or taken.
        """
        path = path.expanduser()
        if not path.exists():
            raise InputError(f"{path} does not exist", hint="give an existing file or folder")
        name = name or source_name(path)
        if not _NAME.fullmatch(name):
            raise InputError(
                f"invalid source name {name!r}",
                hint="use letters, digits, '.', '_' or '-' (at most 64), e.g. --name mylib",
            )
        with self._locked() as catalog:
            if any(s.name == name for s in catalog.sources):
                raise InputError(
                    f"a source named {name!r} exists already",
                    hint=f"choose another --name, or `codeproof index update {name}`",
                )
            now = _now()
            entry = SourceEntry(
                name=name, kind=kind or guess_kind(path), path=str(path.resolve()), added_at=now
            )
            try:
                stats = self._index(catalog, entry, progress)
            except BaseException:
                self.store().drop_source(name)  # nothing half-added stays behind
                raise
            catalog.sources.append(entry)
            self._save(catalog)
        return stats

    def update(
        self, names: Sequence[str] = (), *, progress: Progress | None = None
    ) -> list[IndexStats]:
        """Index the named sources again (all when none is named); incremental.

        Raises:
            InputError: A name is unknown, or a source's path has disappeared.
        """
        with self._locked() as catalog:
            entries = _pick(catalog, names)
            out = [self._index(catalog, entry, progress) for entry in entries]
            self._save(catalog)
        return out

    def _index(self, catalog: Catalog, entry: SourceEntry, progress: Progress | None) -> IndexStats:
        self._check_embedder(catalog)
        docs = documents(entry.kind, Path(entry.path), self.limits)
        store = self.store()
        stats = index_source(store, self.embedder, entry.name, entry.kind, docs, progress=progress)
        catalog.embedder = self.embedder.name
        catalog.dimension = self.embedder.dimension
        catalog.store = self.store_name
        entry.updated_at = _now()
        entry.documents = stats.documents
        entry.chunks = store.count(entry.name)
        return stats

    def remove(self, name: str) -> int:
        """Forget a source and delete its chunks; returns how many chunks went.

        Raises:
            InputError: No source has that name.
        """
        with self._locked() as catalog:
            (entry,) = _pick(catalog, [name])
            gone = self.store().drop_source(entry.name)
            catalog.sources = [s for s in catalog.sources if s.name != name]
            self._save(catalog)
        return gone

    # -- reading -----------------------------------------------------------------------

    def search(
        self,
        text: str,
        *,
        k: int = 5,
        mode: SearchMode = "hybrid",
        sources: Sequence[str] = (),
        kinds: Sequence[str] = (),
        chunk_kinds: Sequence[str] = (),
    ) -> list[Hit]:
        """The best ``k`` chunks for ``text``.

        Raises:
            InputError: The query is empty or names an unknown source.
            ConfigError: The index was built with another embedder.
        """
        if not text.strip():
            raise InputError("the search query is empty", hint='give some words: search "QUERY"')
        catalog = self.catalog()
        if sources:
            _pick(catalog, sources)
        if not catalog.sources:
            return []
        vector = None
        if mode != "fts":
            self._check_embedder(catalog)
            vector = self.embedder.embed([text])[0]
        query = Query(
            text=text,
            vector=vector,
            k=k,
            mode=mode,
            sources=tuple(sources),
            kinds=tuple(kinds),
            chunk_kinds=tuple(chunk_kinds),
        )
        return self.store().search(query)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


def _pick(catalog: Catalog, names: Sequence[str]) -> list[SourceEntry]:
    if not names:
        return list(catalog.sources)
    by_name = {s.name: s for s in catalog.sources}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise InputError(
            f"no source named {', '.join(unknown)} in the index",
            hint=f"known sources: {known} (see `codeproof index list`)",
        )
    return [by_name[n] for n in names]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
