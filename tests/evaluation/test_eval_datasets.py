"""Dataset loading, validation and sampling."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from codeproof.core.errors import InputError
from codeproof.evaluation.datasets import (
    BUILTIN_DATASETS,
    find_data_dir,
    load_dataset,
    load_jsonl,
    sample_tasks,
)


@pytest.mark.parametrize(
    ("name", "language", "first_entry"),
    [
        ("humaneval", "python", "has_close_elements"),
        ("humaneval-x-js", "javascript", "hasCloseElements"),
        ("humaneval-x-java", "java", "hasCloseElements"),
    ],
)
def test_builtin_datasets_have_164_tasks(
    name: str, language: str, first_entry: str, shared_benchmarks: Path
) -> None:
    tasks = load_dataset(name, data_dir=shared_benchmarks)
    assert len(tasks) == 164
    assert len({t.task_id for t in tasks}) == 164
    assert {t.language for t in tasks} == {language}
    assert tasks[0].entry_point == first_entry
    assert all(t.canonical_solution for t in tasks)


def test_helper_functions_do_not_hide_the_entry_point(shared_benchmarks: Path) -> None:
    js = {t.task_id: t for t in load_dataset("humaneval-x-js", data_dir=shared_benchmarks)}
    java = {t.task_id: t for t in load_dataset("humaneval-x-java", data_dir=shared_benchmarks)}
    assert js["JavaScript/32"].entry_point == "findZero"
    assert js["JavaScript/38"].entry_point == "decodeCyclic"
    assert java["Java/10"].entry_point == "makePalindrome"


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


GOOD = {"task_id": "t/1", "prompt": "def f():\n", "entry_point": "f", "test": "def check(c): 1"}


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("{not json", "data.jsonl:2: invalid JSON"),
        ("[1, 2]", "data.jsonl:2: not a JSON object"),
        (json.dumps({**GOOD, "task_id": "t/2", "test": ""}), "data.jsonl:2: field 'test'"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "entry_point"}), "'entry_point'"),
        (json.dumps({**GOOD, "task_id": "t/2", "language": "cobol"}), "unknown language 'cobol'"),
        (json.dumps(GOOD), "data.jsonl:2: duplicate task_id 't/1' (first on line 1)"),
    ],
)
def test_jsonl_validation_names_the_line(tmp_path: Path, bad_line: str, message: str) -> None:
    path = _write(tmp_path, [json.dumps(GOOD), bad_line])
    with pytest.raises(InputError) as info:
        load_jsonl(path)
    assert message in str(info.value)
    assert info.value.exit_code == 2
    assert info.value.hint


def test_jsonl_defaults_aliases_blank_lines_and_gzip(tmp_path: Path) -> None:
    lines = [json.dumps(GOOD), "", json.dumps({**GOOD, "task_id": "t/2", "language": "js"})]
    plain = load_jsonl(_write(tmp_path, lines))
    assert [t.language for t in plain] == ["python", "javascript"]
    gz = tmp_path / "data.jsonl.gz"
    with gzip.open(gz, "wt") as fh:
        fh.write("\n".join(lines))
    assert load_jsonl(gz) == plain


def test_empty_file_and_unknown_name_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="holds no task"):
        load_jsonl(_write(tmp_path, [""]))
    with pytest.raises(InputError, match="unknown dataset 'nope'") as info:
        load_dataset("nope")
    assert all(name in str(info.value.hint) for name in BUILTIN_DATASETS)


def test_data_dir_configured_found_and_missing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        find_data_dir(tmp_path / "missing")
    assert find_data_dir(tmp_path) == tmp_path
    nested = tmp_path / "repo" / "sub"
    nested.mkdir(parents=True)
    (tmp_path / "shared" / "benchmarks").mkdir(parents=True)
    assert find_data_dir(cwd=nested) == tmp_path / "shared" / "benchmarks"


def test_sampling_is_reproducible_and_keeps_dataset_order() -> None:
    tasks = load_dataset("humaneval")
    first = sample_tasks(tasks, 40, seed=7)
    again = sample_tasks(tasks, 40, seed=7)
    other = sample_tasks(tasks, 40, seed=8)
    assert [t.task_id for t in first] == [t.task_id for t in again]
    assert [t.task_id for t in first] != [t.task_id for t in other]
    assert len({t.task_id for t in first}) == 40
    order = [tasks.index(t) for t in first]
    assert order == sorted(order)
    assert sample_tasks(tasks, None) == tasks
    assert sample_tasks(tasks, 500) == tasks
    with pytest.raises(InputError):
        sample_tasks(tasks, 0)


def test_doctor_check_reports_datasets(tmp_path: Path) -> None:
    from codeproof.core.config import load_settings
    from codeproof.evaluation.checks import check_benchmarks

    ok = check_benchmarks(load_settings())
    assert ok.ok and "humaneval-x-java (164)" in ok.detail
    broken = check_benchmarks(load_settings(evaluation={"data_dir": str(tmp_path / "nope")}))
    assert not broken.ok and not broken.required and broken.fix
    assert "humaneval-x-js" in broken.detail and "humaneval:" not in broken.detail


def test_a_dataset_file_from_a_pinned_url_is_downloaded_once_and_verified(
    tmp_path: Path, shared_benchmarks: Path
) -> None:
    """``--data-url URL#sha256=HEX``: served here from loopback (no network needed)."""
    import hashlib
    import http.server
    import threading
    from functools import partial

    from codeproof.core.config import load_settings
    from codeproof.core.errors import ModelIntegrityError
    from codeproof.evaluation.remote import fetch_data_file

    source = shared_benchmarks / "humaneval-x" / "js.jsonl.gz"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(source.parent))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/js.jsonl.gz"
        settings = load_settings(home=tmp_path / "home")
        path = fetch_data_file(f"{url}#sha256={digest}", settings)
        tasks = load_dataset("humaneval-x-js", data_file=path)
        assert len(tasks) == 164 and tasks[0].language == "javascript"
        assert fetch_data_file(f"{url}#sha256={digest}", settings) == path  # no new download
        with pytest.raises(ModelIntegrityError, match="expected"):
            fetch_data_file(f"{url}#sha256={'0' * 64}", settings)
        with pytest.raises(InputError, match="has no #sha256="):
            fetch_data_file(url, settings)
    finally:
        server.shutdown()
        server.server_close()
