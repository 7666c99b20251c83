"""An Airflow DAG that runs the plain incremental indexer once per source, with dynamic
task mapping (extra ``[airflow]``: ``pip install 'codeproof[airflow]'``).

``list_sources`` reads the index's sources (all, or those named in the run's
``sources`` param); ``index_source`` is mapped over them, each doing exactly what
``codeproof index update NAME`` does; ``summarize`` adds the statistics up. The index
takes one writer at a time (its lock), so the mapped tasks run one after the other
(``max_active_tis_per_dag=1``); the mapping gives each source its own task instance,
retries and log. A file in the ``dags/`` folder needs three lines (Airflow's safe mode
parses only files that name both "airflow" and "dag")::

    # airflow DAG: codeproof's incremental indexing
    from codeproof.retrieval.dag import build_dag
    dag = build_dag()
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from airflow.sdk import DAG, dag, task

from codeproof.core.config import load_settings
from codeproof.retrieval.index import Index


def _index() -> Index:
    return Index.from_settings(load_settings())


def build_dag(dag_id: str = "codeproof_index") -> DAG:
    """The indexing DAG (no schedule: trigger it, or give it one in the ``dags/`` file)."""

    @dag(dag_id=dag_id, schedule=None, catchup=False, params={"sources": []})
    def codeproof_index() -> None:
        @task
        def list_sources(params: dict[str, Any] | None = None) -> list[str]:
            names = [s.name for s in _index().sources()]
            wanted = list((params or {}).get("sources") or names)
            return [n for n in names if n in wanted]

        @task(max_active_tis_per_dag=1, retries=1)
        def index_source(name: str) -> dict[str, Any]:
            index = _index()
            try:
                (stats,) = index.update([name])
            finally:
                index.close()
            return asdict(stats)

        @task
        def summarize(stats: list[dict[str, Any]]) -> dict[str, Any]:
            keys = ("documents", "changed", "removed", "chunks", "embedded", "reused")
            total = {k: sum(int(s[k]) for s in stats) for k in keys}
            return {"sources": [s["source"] for s in stats], **total}

        summarize(index_source.expand(name=list_sources()))

    built: DAG = codeproof_index()
    return built
