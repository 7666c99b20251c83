"""``codeproof index ...`` and ``codeproof search`` through the real entry point (real
MiniLM embedder, real LanceDB store)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from retrieval_doubles import FIXTURES

from codeproof.cli import main


def cli(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["codeproof", *args])
    with pytest.raises(SystemExit) as caught:
        main()
    out, err = capsys.readouterr()
    code = caught.value.code
    return (code if isinstance(code, int) else 1) if code is not None else 0, out, err


@pytest.fixture
def index_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CODEPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CODEPROOF_RETRIEVAL__INDEX_DIR", str(tmp_path / "idx"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "idx"


def test_index_and_search_round_trip(
    index_dir: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = cli(["index", "add", str(project), "--name", "tide"], monkeypatch, capsys)
    assert code == 0, err
    assert "tide: 5 documents (5 changed, 0 removed)" in " ".join(err.split())
    code, _, err = cli(["index", "add", str(FIXTURES / "qa"), "--kind", "qa"], monkeypatch, capsys)
    assert code == 0, err
    code, out, _ = cli(["index", "list", "--json"], monkeypatch, capsys)
    assert [(s["name"], s["kind"]) for s in json.loads(out)] == [("tide", "code"), ("qa", "qa")]
    code, out, _ = cli(
        ["search", "how many of a creature were seen in total", "--json", "-k", "2"],
        monkeypatch,
        capsys,
    )
    hits = json.loads(out)
    assert code == 0 and len(hits) == 2
    top = hits[0]
    assert set(top) >= {"source", "path", "start_line", "end_line", "score", "snippet"}
    where = (top["source"], top["path"], top["symbol"])
    assert where == ("tide", "tidepool/ledger.py", "Ledger.tally")
    code, out, _ = cli(["search", "crabs total", "--source", "qa"], monkeypatch, capsys)
    assert code == 0 and "qa:Posts.xml#1:3-" in out
    code, _, err = cli(["index", "update"], monkeypatch, capsys)
    assert "0 embedded" in err
    code, _, err = cli(["index", "remove", "qa"], monkeypatch, capsys)
    assert code == 0 and "removed qa" in err
    assert (index_dir / "index.json").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["index", "add", "/no/such/dir"], "does not exist"),
        (["index", "remove", "ghost"], "no source named ghost"),
        (["search", "   "], "the search query is empty"),
        (["index", "add", ".", "--kind", "bogus"], "Invalid value for '--kind'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    index_dir: Path,
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = cli(args, monkeypatch, capsys)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out


def test_retrieval_is_on_when_the_index_has_a_source(
    index_dir: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from codeproof.commands.workflow_run import retrieval_wanted
    from codeproof.core.config import load_settings
    from codeproof.retrieval.index import Index

    assert retrieval_wanted(load_settings(), no_retrieval=False) is False  # no index yet
    Index.from_settings(load_settings()).add(project, name="tide")
    assert retrieval_wanted(load_settings(), no_retrieval=False) is True
    assert retrieval_wanted(load_settings(), no_retrieval=True) is False
    monkeypatch.setenv("CODEPROOF_RETRIEVAL__ENABLED", "false")
    assert retrieval_wanted(load_settings(), no_retrieval=False) is False


def test_new_with_a_missing_project_is_one_line_and_exit_2(
    index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(
        ["new", "add a crab report", "--project", "/no/such/project", "--yes"],
        monkeypatch,
        capsys,
    )
    assert code == 2
    assert "is not a directory" in err and "Traceback" not in err + out
