"""Sources made of records: Stack Exchange Q&A, GitHub issues, codeproof's verified modules.

* ``Posts.xml`` (the Stack Exchange data dump format): one document per question that
  has an answer: its title, tags and body, then its accepted answer (or, when none was
  accepted, its best-scored answer). HTML bodies become text.
* GitHub REST JSON: a file (or folder of files) holding issue objects as
  ``GET /repos/{owner}/{repo}/issues`` returns them (pull requests included), and
  optionally comment objects as ``GET /repos/{owner}/{repo}/issues/comments`` returns
  them (matched to their issue by ``issue_url``). One document per issue.
* The run store: every module that passed in an earlier run, with its tests.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlparse
from xml.parsers import expat

from codeproof.core.errors import InputError
from codeproof.languages import registry
from codeproof.retrieval.chunking.markup import html_text
from codeproof.retrieval.models import Document

logger = logging.getLogger(__name__)


@dataclass
class _Question:
    id: str
    title: str
    body: str
    tags: list[str]
    accepted: str
    line: int
    answer: tuple[int, str, bool] | None = None  # (score, body, accepted)


@dataclass
class _PostsReader:
    """Reads ``<row>`` elements with their line numbers (expat)."""

    questions: dict[str, _Question] = field(default_factory=dict)
    orphans: dict[str, list[tuple[str, int, str]]] = field(default_factory=dict)
    parser: Any = None

    def row(self, name: str, attrs: dict[str, str]) -> None:
        if name != "row":
            return
        kind = attrs.get("PostTypeId")
        if kind == "1":
            q = _Question(
                id=attrs.get("Id", ""),
                title=attrs.get("Title", ""),
                body=attrs.get("Body", ""),
                tags=_tags(attrs.get("Tags", "")),
                accepted=attrs.get("AcceptedAnswerId", ""),
                line=self.parser.CurrentLineNumber,
            )
            self.questions[q.id] = q
            for answer in self.orphans.pop(q.id, []):
                self._offer(q, *answer)
        elif kind == "2":
            parent = attrs.get("ParentId", "")
            answer = (attrs.get("Id", ""), _int(attrs.get("Score", "0")), attrs.get("Body", ""))
            question = self.questions.get(parent)
            if question is None:
                self.orphans.setdefault(parent, []).append(answer)
            else:
                self._offer(question, *answer)

    @staticmethod
    def _offer(q: _Question, answer_id: str, score: int, body: str) -> None:
        accepted = bool(q.accepted) and answer_id == q.accepted
        if q.answer is None or accepted or (not q.answer[2] and score > q.answer[0]):
            q.answer = (score, body, accepted)


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def _tags(raw: str) -> list[str]:
    """``<python><list>`` (old dumps) or ``|python|list|`` (new dumps)."""
    for mark in "<>|":
        raw = raw.replace(mark, " ")
    return raw.split()


def qa_documents(path: Path, limits: Any) -> Iterator[Document]:
    """One document per answered question of a ``Posts.xml`` (or a folder holding one).

    Raises:
        InputError: The file is not well-formed XML.
    """
    file = path / "Posts.xml" if path.is_dir() else path
    reader = _PostsReader()
    parser = expat.ParserCreate()
    reader.parser = parser
    parser.StartElementHandler = reader.row
    try:
        with file.open("rb") as fh:
            parser.ParseFile(fh)
    except (expat.ExpatError, OSError) as exc:
        raise InputError(
            f"{file} is not a readable Posts.xml: {exc}",
            hint="give a Stack Exchange data dump's Posts.xml",
        ) from exc
    for q in reader.questions.values():
        if q.answer is None:
            continue
        score, body, accepted = q.answer
        label = "Accepted answer" if accepted else f"Top answer (score {score})"
        text = "\n\n".join(
            [
                f"Question: {q.title}",
                f"Tags: {', '.join(q.tags)}" if q.tags else "",
                html_text(q.body),
                f"{label}:",
                html_text(body),
            ]
        )
        yield Document(
            path=f"{file.name}#{q.id}", text=text, format="qa", title=q.title, line=q.line
        )


def _issue_number(url: str) -> int | None:
    """The issue number at the end of an ``issue_url``."""
    last = PurePosixPath(urlparse(url).path).name
    return int(last) if last.isdigit() else None


def _load_json(file: Path) -> list[Any]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(
            f"{file} is not a readable JSON file: {exc}",
            hint="give a GitHub REST issues export (a JSON array of issues)",
        ) from exc
    return data if isinstance(data, list) else [data]


def issue_documents(path: Path, limits: Any) -> Iterator[Document]:
    """One document per issue (or pull request) of GitHub REST JSON exports."""
    files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
    issues: list[tuple[str, Mapping[str, Any]]] = []
    comments: dict[int, list[Mapping[str, Any]]] = {}
    for file in files:
        name = file.relative_to(path).as_posix() if path.is_dir() else file.name
        for item in _load_json(file):
            if not isinstance(item, Mapping):
                continue
            if "title" in item and "number" in item:
                issues.append((name, item))
            elif "issue_url" in item and "body" in item:
                number = _issue_number(str(item["issue_url"]))
                if number is not None:
                    comments.setdefault(number, []).append(item)
    for name, issue in issues:
        number = int(issue["number"])
        embedded = issue.get("comments")
        thread = [*(embedded if isinstance(embedded, list) else []), *comments.get(number, [])]
        yield _issue_document(name, number, issue, thread)


def _login(item: Mapping[str, Any]) -> str:
    user = item.get("user")
    return str(user.get("login", "")) if isinstance(user, Mapping) else ""


def _issue_document(
    name: str, number: int, issue: Mapping[str, Any], thread: list[Any]
) -> Document:
    labels = [
        str(label.get("name", "")) if isinstance(label, Mapping) else str(label)
        for label in issue.get("labels") or []
    ]
    what = "Pull request" if issue.get("pull_request") else "Issue"
    meta = [f"state: {issue.get('state', '?')}"]
    if labels:
        meta.append(f"labels: {', '.join(labels)}")
    if _login(issue):
        meta.append(f"by {_login(issue)}")
    parts = [f"{what} #{number}: {issue.get('title', '')}", " · ".join(meta)]
    parts.append(str(issue.get("body") or "").strip())
    for comment in thread:
        if isinstance(comment, Mapping) and str(comment.get("body") or "").strip():
            parts.append(f"Comment by {_login(comment) or 'someone'}:\n{comment['body']}".strip())
    return Document(
        path=f"{name}#{number}",
        text="\n\n".join(p for p in parts if p),
        format="issue",
        title=f"#{number} {issue.get('title', '')}",
        url=str(issue.get("html_url") or ""),
    )


def verified_documents(path: Path, limits: Any) -> Iterator[Document]:
    """The files of every module that passed in the runs of a run store.

    ``path`` is the runs directory (holding ``runs.sqlite3``) or that file.
    """
    from codeproof.workflow.store import DB_NAME, RunStore  # heavy: langgraph

    runs_dir = path.parent if path.is_file() else path
    if not (runs_dir / DB_NAME).is_file():
        raise InputError(
            f"no codeproof run store in {runs_dir}",
            hint="give the runs directory (default ~/.cache/codeproof/runs)",
        )
    with RunStore(runs_dir) as store:
        for run in store.list_runs(limit=100_000):
            finished = [
                e.payload
                for e in store.events(run.id, "node_end")
                if e.payload.get("node") == "finish"
            ]
            if not finished:
                continue
            outcomes = finished[-1].get("output", {}).get("outcomes", [])
            yield from _verified_files(run.id, outcomes)


def _verified_files(run_id: str, outcomes: list[Any]) -> Iterator[Document]:
    for outcome in outcomes:
        if not isinstance(outcome, Mapping) or outcome.get("status") != "passed":
            continue
        module = outcome.get("module") or {}
        name = str(module.get("name", "module"))
        files = {**(outcome.get("files") or {}), **(outcome.get("tests") or {})}
        formats = registry.formats()
        for file, content in sorted(files.items()):
            fmt = formats.get(PurePosixPath(file).suffix, str(module.get("language", "")))
            yield Document(
                path=f"{run_id}/{name}/{file}",
                text=str(content),
                format=fmt or "text",
                title=f"{name} (verified in run {run_id})",
            )
