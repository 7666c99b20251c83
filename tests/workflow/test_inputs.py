"""Bad input is refused before anything is created (exit 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from codeproof.cli import main
from codeproof.core.errors import InputError, UnknownLanguageError
from codeproof.workflow.inputs import (
    MAX_REQUEST_BYTES,
    validate_language,
    validate_out_dir,
    validate_request,
)

KNOWN = ["java", "javascript", "python"]


@pytest.mark.parametrize(
    "request_text",
    ["", "   \n\t ", "x" * (MAX_REQUEST_BYTES + 1), "slug\x00ify", "bin\udc80ary", "bell\x07"],
    ids=["empty", "whitespace", "too-big", "nul", "undecodable", "control"],
)
def test_bad_requests_are_refused(request_text: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_request(request_text)
    assert caught.value.exit_code == 2 and caught.value.hint


def test_a_good_request_is_stripped_and_kept() -> None:
    text = "  Write slugify(text)\n\twith tabs and ünïcode  "
    assert validate_request(text) == text.strip()
    assert validate_request("é" * (MAX_REQUEST_BYTES // 2)) == "é" * (MAX_REQUEST_BYTES // 2)


def test_language_aliases_and_unknown_language() -> None:
    assert validate_language("JS", KNOWN) == "javascript"
    assert validate_language(None, KNOWN) is None
    with pytest.raises(UnknownLanguageError) as caught:
        validate_language("cobol", KNOWN)
    assert caught.value.exit_code == 2 and caught.value.known == KNOWN


def test_out_dir_must_be_empty_new_or_a_previous_output(tmp_path: Path) -> None:
    assert validate_out_dir(tmp_path / "new") == tmp_path / "new"
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "keep.txt").write_text("mine")
    with pytest.raises(InputError):
        validate_out_dir(tmp_path / "foreign")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError):
        validate_out_dir(tmp_path / "file")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["new", "   "], "the request is empty"),
        (["new", "x" * (MAX_REQUEST_BYTES + 10)], "the limit is 50 KB"),
        (["new", "a\x00b"], "binary"),
        (["new", "slugify", "--lang", "cobol"], "no toolchain for language 'cobol'"),
        (["new", "slugify"], "interactive mode needs a terminal"),
    ],
    ids=["empty", "too-big", "nul", "unknown-language", "no-terminal"],
)
def test_cli_exits_2_and_creates_nothing(
    args: list[str],
    needle: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CODEPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["codeproof", *args])
    with pytest.raises(SystemExit) as caught:
        main()
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert needle in " ".join(err.split()) and "Traceback" not in err
    assert not (tmp_path / "home").exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("flag", [False, True])
def test_no_cache_turns_off_both_caches_of_the_run(
    flag: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from codeproof.commands import workflow_run

    seen = []
    monkeypatch.setenv("CODEPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(workflow_run, "execute", lambda settings, *rest: seen.append(settings))
    args = ["codeproof", "new", "a slugify function", "--yes", *(["--no-cache"] if flag else [])]
    monkeypatch.setattr(sys, "argv", args)
    with pytest.raises(SystemExit) as caught:
        main()
    assert caught.value.code in (0, None)
    assert [(s.llm.cache, s.sandbox.cache) for s in seen] == [(not flag, not flag)]
