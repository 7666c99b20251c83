"""The Airflow DAG (extra ``[airflow]``): one mapped task per source, run with
``dag.test()``; skipped where Airflow is not installed (the main virtualenv)."""

from __future__ import annotations

import importlib.util
import runpy
from pathlib import Path

import pytest
from retrieval_doubles import FIXTURES

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("airflow") is None, reason="the [airflow] extra is not installed"
)


DAG_FILE = """# an airflow DAG file (safe mode parses files naming airflow and dag)
from codeproof.retrieval.dag import build_dag

dag = build_dag()
"""


@pytest.mark.slow
def test_the_dag_indexes_each_source_in_its_own_mapped_task(
    tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CODEPROOF_RETRIEVAL__INDEX_DIR", str(tmp_path / "idx"))
    monkeypatch.setenv("AIRFLOW_HOME", str(tmp_path / "airflow"))  # before airflow loads
    monkeypatch.setenv(
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN", f"sqlite:///{tmp_path / 'airflow.db'}"
    )
    dags = tmp_path / "dags"
    dags.mkdir()
    (dags / "codeproof_index.py").write_text(DAG_FILE)
    monkeypatch.setenv("AIRFLOW__CORE__DAGS_FOLDER", str(dags))
    monkeypatch.setenv("AIRFLOW__CORE__LOAD_EXAMPLES", "False")
    from airflow.utils import db

    from codeproof.core.config import load_settings
    from codeproof.retrieval.index import Index

    db.initdb()
    index = Index.from_settings(load_settings())
    index.add(project, name="tide")
    index.add(FIXTURES / "qa", name="qa")
    (project / "tidepool" / "salinity.py").write_text("def fresh(psu):\n    return psu < 0.5\n")

    run = runpy.run_path(str(dags / "codeproof_index.py"))["dag"].test()

    assert run.state == "success"
    mapped = [ti for ti in run.get_task_instances() if ti.task_id == "index_source"]
    assert sorted(ti.map_index for ti in mapped) == [0, 1]
    assert all(ti.state == "success" for ti in mapped)
    summary = next(ti for ti in run.get_task_instances() if ti.task_id == "summarize")
    assert summary.state == "success"
    (tide,) = [s for s in Index.from_settings(load_settings()).sources() if s.name == "tide"]
    hits = Index.from_settings(load_settings()).search("fresh", mode="fts", sources=["tide"])
    assert hits and hits[0].chunk.path == "tidepool/salinity.py"
    assert tide.updated_at >= tide.added_at
