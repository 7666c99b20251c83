"""Terminal side of a run: the live display, JSON event lines, and the human prompts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.panel import Panel
from rich.prompt import Confirm, Prompt
from rich.table import Table
from rich.text import Text

from codeproof.commands.progress import clock
from codeproof.core.types import Module, Spec
from codeproof.workflow.models import (
    ClarifyAnswer,
    ClarifyRequest,
    EscalationDecision,
    FailureReport,
    ModuleSelection,
    ModulesRequest,
    QuestionAnswer,
    QuestionRequest,
)
from codeproof.workflow.store import Event

_STATUS_STYLE = {
    "pending": "dim",
    "running": "yellow",
    "passed": "green",
    "weak": "yellow",
    "failed": "red",
    "skipped": "dim",
}


class LiveDisplay:
    """Module checklist, current step, attempt n/max, test counts and tokens/s.

    Fed with audit events (from any thread); use as a context manager.
    """

    def __init__(self, console: Console, max_attempts: int) -> None:
        self.console = console
        self.max_attempts = max_attempts
        self._lock = threading.Lock()
        self._modules: dict[str, dict[str, Any]] = {}
        self._step = "starting"
        self._module: str | None = None
        self._attempt = 0
        self._tokens = 0
        self._generated = 0
        """Completion tokens of the calls the model answered (not from the cache)."""
        self._seconds = 0.0
        self._calls = 0
        self._started = time.monotonic()
        self._live = Live(self._render(), console=console, refresh_per_second=4, transient=False)

    def __enter__(self) -> LiveDisplay:
        self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._live.update(self._render())
        self._live.stop()

    def pause(self) -> None:
        """Stop redrawing (before a prompt)."""
        self._live.stop()

    def resume(self) -> None:
        self._live.start()

    def on_event(self, event: Event) -> None:
        with self._lock:
            self._apply(event)
        self._live.update(self._render())

    def _apply(self, event: Event) -> None:
        p = event.payload
        if event.kind == "node_start":
            self._step = str(p.get("node"))
            self._module = p.get("module")
            self._attempt = int(p.get("attempt") or 0)
            if self._module in self._modules and self._modules[self._module]["status"] == "pending":
                self._modules[self._module]["status"] = "running"
        elif event.kind == "node_end":
            self._apply_node_end(str(p.get("node")), p.get("output") or {})
        elif event.kind == "llm_call" and not p.get("replayed"):
            self._calls += 1
            self._tokens += int(p.get("completion_tokens", 0))
            if not p.get("cached"):  # a cache hit takes no time: it says nothing of speed
                self._generated += int(p.get("completion_tokens", 0))
                self._seconds += float(p.get("latency_s", 0.0))

    def _apply_node_end(self, node: str, out: dict[str, Any]) -> None:
        if node == "modules":
            self._modules = {
                m["name"]: {"status": "pending", "tests": "", "attempts": 0}
                for m in out.get("checklist", [])
            }
        elif node == "execute" and self._module in self._modules:
            work = out.get("work") or {}
            report = work.get("report") or {}
            line = self._modules[self._module]
            line["tests"] = f"{report.get('passed', 0)}/{report.get('total', 0)}"
            line["attempts"] = work.get("attempts_total", 0)
            self._attempt = int(work.get("attempt", 0))
        elif node == "finish":
            for outcome in out.get("outcomes", []):
                name = outcome["module"]["name"]
                if name in self._modules:
                    self._modules[name]["status"] = outcome["status"]

    def _render(self) -> Panel:
        table = Table("module", "status", "tests", "attempts", box=None, pad_edge=False)
        for name, line in self._modules.items():
            style = _STATUS_STYLE.get(line["status"], "")
            table.add_row(
                Text(name), Text(line["status"], style=style), line["tests"], str(line["attempts"])
            )
        rate = self._generated / self._seconds if self._seconds > 0 else 0.0
        where = f" · module {self._module}" if self._module else ""
        attempt = f" · attempt {self._attempt}/{self.max_attempts}" if self._attempt else ""
        elapsed = clock(time.monotonic() - self._started)
        status = Text(
            f"{elapsed} · step: {self._step}{where}{attempt} · {self._calls} LLM calls · "
            f"{self._tokens} tokens · {rate:.1f} tok/s",
            style="bold",
        )
        return Panel(Group(table, status), title="codeproof", expand=False)


class TerminalHuman:
    """Interactive prompts (the live display pauses while one is open)."""

    def __init__(self, console: Console, display: LiveDisplay | None = None) -> None:
        self.console = console
        self.display = display

    def _pause(self) -> None:
        if self.display is not None:
            self.display.pause()

    def _resume(self) -> None:
        if self.display is not None:
            self.display.resume()

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer:
        self._pause()
        try:
            c = self.console
            c.print(
                Panel(
                    Text(request.reply),
                    title=f"intake · round {request.round}/{request.max_rounds}",
                )
            )
            if request.assumptions:
                c.print("[bold]If you say proceed, I assume:[/]")
                for a in request.assumptions:
                    c.print(f"  - {escape(a)}")
            c.print(
                "[dim]Answer each question, or type 'proceed' to go on with the assumptions.[/]"
            )
            answers = []
            for q in request.questions:
                a = Prompt.ask(f"[bold]?[/] {escape(q)}", console=c, default="")
                if a.strip().lower() == "proceed":
                    return ClarifyAnswer(proceed=True)
                answers.append(a.strip() or "(no preference)")
            return ClarifyAnswer(answers=answers)
        finally:
            self._resume()

    def select_modules(self, request: ModulesRequest) -> ModuleSelection:
        self._pause()
        try:
            if request.changes:  # --project: the plan of changes to confirm
                self.console.print("[bold]Planned changes to the project:[/]")
                for change in request.changes:
                    self.console.print(f"  {escape(change)}", highlight=False)
            return ModuleSelection(
                modules=_edit_modules(self.console, request.spec, request.modules)
            )
        finally:
            self._resume()

    def escalate(self, report: FailureReport) -> EscalationDecision:
        self._pause()
        try:
            _show_failure(self.console, report)
            return _ask_escalation(self.console, report)
        finally:
            self._resume()

    def answer(self, request: QuestionRequest) -> QuestionAnswer:
        self._pause()
        try:
            return _ask_question(self.console, request)
        finally:
            self._resume()


def _ask_question(console: Console, request: QuestionRequest) -> QuestionAnswer:
    """A numbered choice (Enter: the default), or a value typed as a literal."""
    title = f"module {request.module} · question {request.number}/{request.limit}"
    table = Table("#", "result", "given by", box=None, pad_edge=False)
    default = 1
    for i, result in enumerate(request.results, 1):
        mark = " (the chosen code)" if result.chosen else ""
        table.add_row(str(i), escape(result.shown) + mark, result.backing or str(result.drafts))
        default = i if result.value == request.suggested else default
    who = (
        "A designed test and the drafts" if any(r.tests for r in request.results) else "The drafts"
    )
    intro = Text(f"{who} disagree on {request.call}. What should it return?")
    console.print(Panel(Group(intro, table), title=title))
    reply = Prompt.ask(
        "[dim]number, or the expected value as a literal (raises Error for an error)[/]",
        console=console,
        default=str(default),
    ).strip()
    if reply.isdigit() and 1 <= int(reply) <= len(request.results):
        return QuestionAnswer(value=request.results[int(reply) - 1].value)
    return QuestionAnswer(value=reply or request.suggested)


def _modules_table(modules: list[Module]) -> Table:
    table = Table("#", "module", "purpose", "depends on", "interface")
    for i, m in enumerate(modules, 1):
        cells = (m.name, m.purpose, ", ".join(m.depends_on), m.public_interface)
        table.add_row(str(i), *(escape(c) for c in cells))
    return table


_MODULE_HELP = (
    "[dim]Enter = accept · drop N · rename N NEW · edit N · add NAME · (N = row number)[/]"
)


def _edit_modules(console: Console, spec: Spec, proposed: list[Module]) -> list[Module]:
    modules = list(proposed)
    while True:
        console.print(_modules_table(modules))
        console.print(_MODULE_HELP)
        command = Prompt.ask("modules", console=console, default="").strip()
        if not command:
            if modules:
                return modules
            console.print("[red]keep at least one module[/]")
            continue
        try:
            modules = _apply_module_command(console, spec, modules, command.split())
        except (IndexError, ValueError):
            console.print(f"[red]cannot apply {escape(command)!r}[/]")


def _apply_module_command(
    console: Console, spec: Spec, modules: list[Module], words: list[str]
) -> list[Module]:
    verb = words[0].lower()
    if verb == "add":
        name = words[1]
        purpose = Prompt.ask("purpose", console=console)
        interface = Prompt.ask("public interface", console=console, default=name)
        return [
            *modules,
            Module(name=name, purpose=purpose, language=spec.language, public_interface=interface),
        ]
    index = int(words[1]) - 1
    if not 0 <= index < len(modules):
        raise IndexError(index)
    target = modules[index]
    if verb == "drop":
        return [m for i, m in enumerate(modules) if i != index]
    if verb == "rename":
        new = words[2]
        renamed = [
            m.model_copy(
                update={"depends_on": [new if d == target.name else d for d in m.depends_on]}
            )
            for m in modules
        ]
        renamed[index] = renamed[index].model_copy(update={"name": new})
        return renamed
    if verb == "edit":
        purpose = Prompt.ask("purpose", console=console, default=target.purpose)
        interface = Prompt.ask("public interface", console=console, default=target.public_interface)
        deps = Prompt.ask(
            "depends on (comma separated)", console=console, default=",".join(target.depends_on)
        )
        edited = target.model_copy(
            update={
                "purpose": purpose,
                "public_interface": interface,
                "depends_on": [d.strip() for d in deps.split(",") if d.strip()],
            }
        )
        return [edited if i == index else m for i, m in enumerate(modules)]
    raise ValueError(verb)


def _show_failure(console: Console, report: FailureReport) -> None:
    title = f"module {report.module.name}: still failing after {report.attempts} attempt(s)"
    if report.stuck:
        title += " (stuck)"
    failing = Table("failing test", "message", show_lines=True)
    for f in report.failing[:10]:
        failing.add_row(escape(f["name"]), escape(f["message"][:600]))
    history = Table("attempt", "change", "passed")
    for h in report.history:
        history.add_row(str(h.attempt), escape(h.change[:200]), f"{h.passed}/{h.total}")
    cause = Text(f"likely cause: {report.likely_cause}", style="bold")
    console.print(Panel(Group(failing, history, cause), title=title, border_style="red"))


def _react(**edits: Any) -> EscalationDecision:
    return EscalationDecision(action="react", **edits)


def _edit_module(console: Console, report: FailureReport) -> EscalationDecision:
    edited = click.edit(report.module.model_dump_json(indent=2), extension=".json")
    try:
        return _react(module=Module.model_validate_json(edited) if edited else None)
    except ValueError as exc:
        console.print(f"[red]invalid module, not changed: {escape(str(exc))}[/]")
        return _react()


Choice = tuple[str, Callable[[Console, FailureReport], EscalationDecision]]

_ESCALATION_CHOICES: dict[str, Choice] = {
    "r": ("retry", lambda c, r: _react()),
    "h": ("retry with a hint", lambda c, r: _react(hint=Prompt.ask("hint", console=c))),
    "e": ("edit the code by hand", lambda c, r: _react(files=_edit_files(c, r.files))),
    "s": ("edit the spec", lambda c, r: _react(spec=_edit_spec(c, r.spec))),
    "m": ("edit the module", _edit_module),
    "q": ("edit the request", lambda c, r: _react(request=Prompt.ask("new request", console=c))),
    "c": ("continue (mark done-with-failures)", lambda c, r: EscalationDecision(action="continue")),
    "x": ("stop the run", lambda c, r: EscalationDecision(action="stop")),
}


def _ask_escalation(console: Console, report: FailureReport) -> EscalationDecision:
    for key, (label, _) in _ESCALATION_CHOICES.items():
        console.print(f"  [bold]{key}[/] {label}")
    choice = Prompt.ask("choice", console=console, choices=list(_ESCALATION_CHOICES), default="c")
    return _ESCALATION_CHOICES[choice][1](console, report)


def _edit_spec(console: Console, spec: Spec) -> Spec | None:
    text = click.edit(spec.model_dump_json(indent=2), extension=".json")
    if not text:
        return None
    try:
        return Spec.model_validate_json(text)
    except ValueError as exc:
        console.print(f"[red]invalid spec, not changed: {escape(str(exc))}[/]")
        return None


def _edit_files(console: Console, files: dict[str, str]) -> dict[str, str]:
    edited: dict[str, str] = {}
    for path, content in files.items():
        if not Confirm.ask(f"edit {path}?", console=console, default=True):
            continue
        new = click.edit(content, extension="." + path.rsplit(".", 1)[-1])
        if new is not None and new != content:
            edited[path] = new
    return edited
