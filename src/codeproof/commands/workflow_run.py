"""Running the workflow from the CLI: model, toolchains, run store, display and summary.

Shared by ``codeproof new`` and ``codeproof resume``; imported only when one of them runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Literal

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from codeproof.agents.prompting import render_spec
from codeproof.commands.display import LiveDisplay, TerminalHuman
from codeproof.commands.interrupt import ctrl_c_stops
from codeproof.commands.progress import JsonEvents, JsonHuman, ProgressLines
from codeproof.core.config import Settings, load_settings
from codeproof.core.errors import InputError
from codeproof.languages import registry
from codeproof.llm.registry import get_chat_model
from codeproof.toolchains.client import started_toolchains
from codeproof.toolchains.router import languages
from codeproof.workflow.deps import Grounder, RunOptions
from codeproof.workflow.humans import AutoHuman, Human
from codeproof.workflow.inputs import (
    read_spec_file,
    validate_language,
    validate_out_dir,
    validate_request,
)
from codeproof.workflow.project import Project, load_project
from codeproof.workflow.runner import Runner, RunResult
from codeproof.workflow.store import RunStore, new_run_id
from codeproof.workflow.summary import summarize

OnFailure = Literal["ask", "continue", "stop"]


def grounder_for(
    settings: Settings, options: RunOptions, project: Project | None = None
) -> Grounder | None:
    """Retrieval over the index for the agents, when the run has it on."""
    if not options.retrieval:
        return None
    from codeproof.retrieval.grounding import IndexGrounder, ProjectGrounder  # heavy
    from codeproof.retrieval.index import Index

    r = settings.retrieval
    grounder = IndexGrounder(Index.from_settings(settings), k=r.top_k, budget=r.max_context_chars)
    if project is None:
        return grounder
    return ProjectGrounder(grounder, project.existing, project.place)


def index_project(settings: Settings, project: Project, console: Console) -> None:
    """Add the project to the index (or bring its entry up to date)."""
    from codeproof.retrieval.index import Index, source_name

    index = Index.from_settings(settings)
    try:
        same = [s.name for s in index.sources() if s.path == str(project.root)]
        with console.status(f"indexing {escape(str(project.root))}"):
            if same:
                index.update(same)
            else:
                taken = {s.name for s in index.sources()}
                name, n = f"project-{source_name(project.root)}", 2
                while name in taken:
                    name, n = f"project-{source_name(project.root)}-{n}", n + 1
                index.add(project.root, kind="code", name=name)
    finally:
        index.close()


def retrieval_wanted(settings: Settings, no_retrieval: bool) -> bool:
    """On by default when the index holds a source; off by flag or setting."""
    if no_retrieval or not settings.retrieval.enabled:
        return False
    from codeproof.retrieval.index import CATALOG, Catalog

    catalog = settings.index_dir / CATALOG
    try:
        return bool(Catalog.model_validate_json(catalog.read_text(encoding="utf-8")).sources)
    except (OSError, ValueError):
        return False


@contextmanager
def _presenter(
    store: RunStore, options: RunOptions, json_out: bool, console: Console
) -> Iterator[Human]:
    """Subscribe the live display (or JSON lines) to the store; yield who answers questions."""
    with ExitStack() as stack:
        human: Human
        if json_out:
            events = JsonEvents()
            store.subscribe(events.on_event)
            stack.callback(store.unsubscribe, events.on_event)
            stack.callback(events.close)
            human = AutoHuman() if options.auto else JsonHuman(events)
        elif not console.is_terminal:  # piped or in CI: a plain line per step
            lines = ProgressLines(console.file)
            store.subscribe(lines.on_event)
            stack.callback(store.unsubscribe, lines.on_event)
            stack.callback(lines.close)
            human = AutoHuman() if options.auto else TerminalHuman(console, None)
        else:
            display = stack.enter_context(LiveDisplay(console, options.max_attempts))
            store.subscribe(display.on_event)
            stack.callback(store.unsubscribe, display.on_event)
            human = AutoHuman() if options.auto else TerminalHuman(console, display)
        yield human


def execute(
    settings: Settings,
    options: RunOptions,
    json_out: bool,
    run_id: str,
    action: Callable[[Runner], RunResult],
) -> None:
    """Build the runner (model, toolchains, store, display), run ``action``, report."""
    if not options.auto and not json_out and not sys.stdin.isatty():
        raise InputError(
            "interactive mode needs a terminal", hint="pass --yes (or --json to answer as JSON)"
        )
    console = Console(stderr=json_out)
    registry.add_configured(settings)  # [toolchains.<name>] without a language package
    known = languages(settings)
    project = load_project(Path(options.project), options.language) if options.project else None
    model = get_chat_model(settings)
    try:
        model.check()  # a missing model or key fails here, before a run exists
    except BaseException:
        model.close()
        raise
    with RunStore(settings.runs_dir) as store:
        try:
            with ctrl_c_stops(model), _presenter(store, options, json_out, console) as human:
                runner = Runner(
                    settings,
                    store,
                    model,
                    started_toolchains(settings),
                    human,
                    grounder=grounder_for(settings, options, project),
                    project=project,
                    languages=tuple(known),
                )
                result = action(runner)
        except KeyboardInterrupt:
            console.print(
                f"run {run_id} paused (interrupted); continue with `codeproof resume {run_id}`"
            )
            raise typer.Exit(130) from None
        finally:
            model.close()
        summary = summarize(store.get_run(result.run_id), store.events(result.run_id))
    if json_out:
        JsonEvents().emit({"event": "result", **summary.model_dump(mode="json")})
    else:
        _print_summary(console, result, summary.model_dump(mode="json"))
    if result.status != "done" or any(m.status == "failed" for m in summary.modules):
        raise typer.Exit(1)  # paused, or done with a module whose kept tests fail


def _print_summary(console: Console, result: RunResult, summary: dict[str, object]) -> None:
    table = Table("module", "status", "proof", "tests", "attempts", "findings")
    modules = summary.get("modules")
    for m in modules if isinstance(modules, list) else []:
        table.add_row(
            escape(m["name"]),
            m["status"],
            m.get("proof") or "–",
            f"{m['passed']}/{m['total']}",
            str(m["attempts"]),
            str(m["findings"]),
        )
    console.print(table)
    for m in modules if isinstance(modules, list) else []:
        _print_failing(console, m["name"], m.get("failing") or [])
        _print_assumed(console, m["name"], m.get("assumed") or [])
    usage = summary.get("usage")
    if isinstance(usage, dict):
        console.print(
            f"{usage['calls']} LLM calls · {usage['total_tokens']} tokens · "
            f"{usage['cache_hits']} cache hits · ${usage['cost_usd']:.4f} · "
            f"{summary.get('sandbox_runs', 0)} sandbox runs "
            f"({summary.get('sandbox_cached', 0)} from the result cache)"
        )
    where = f"; project in {result.project_dir}" if result.project_dir else ""
    reason = f" ({result.reason})" if result.reason else ""
    console.print(escape(f"run {result.run_id} {result.status}{reason}{where}"), style="bold")


SHOWN_FAILING = 5


def _print_failing(console: Console, module: str, failing: list[dict[str, str]]) -> None:
    """The tests a module fails, so the user sees why it did not pass without opening
    the report (which lists them all)."""
    if not failing:
        return
    console.print(f"{escape(module)} fails {len(failing)} kept test(s):")
    for f in failing[:SHOWN_FAILING]:
        console.print(
            escape(f"  {f['name']}: {f['message']}" if f["message"] else f"  {f['name']}")
        )
    if len(failing) > SHOWN_FAILING:
        console.print(f"  … and {len(failing) - SHOWN_FAILING} more (see the report)")


def _print_assumed(console: Console, module: str, assumed: list[str]) -> None:
    """The answers ``--yes`` took without asking, so the user checks them without opening
    the report (a range compressor "passed" with ``compress([1, 2]) -> '1'`` among them)."""
    if not assumed:
        return
    console.print(f"{escape(module)}: {len(assumed)} answer(s) assumed without asking; check:")
    for answer in assumed[:SHOWN_FAILING]:
        console.print(escape(f"  {answer}"))
    if len(assumed) > SHOWN_FAILING:
        console.print(f"  … and {len(assumed) - SHOWN_FAILING} more (see the report)")


def start_new(
    request: str | None,
    *,
    lang: str | None,
    out: Path | None,
    yes: bool,
    modules: str | None,
    max_attempts: int | None,
    on_failure: OnFailure | None,
    candidates: int | None,
    provider: str | None,
    model: str | None,
    json_out: bool,
    spec_file: Path | None = None,
    no_retrieval: bool = False,
    project_dir: Path | None = None,
    no_cache: bool = False,
) -> None:
    """Validate the input of ``codeproof new``, then run the workflow."""
    given = read_spec_file(spec_file) if spec_file is not None else None
    if request is not None:
        text = validate_request(request)
    elif given is not None:
        text = validate_request(render_spec(given.spec))
    else:
        raise InputError("no request given", hint='codeproof new "what to build" (or --spec FILE)')
    settings = load_settings(
        llm={"provider": provider, "model": model, "cache": False if no_cache else None},
        sandbox={"cache": False if no_cache else None},
        workflow={
            "max_attempts": max_attempts,
            "on_failure": on_failure,
            "candidates": candidates,
        },
    )
    language = validate_language(lang, languages(settings))
    project = load_project(project_dir, language) if project_dir is not None else None
    retrieval = retrieval_wanted(settings, no_retrieval)
    if project is not None:
        language = language or project.language
        retrieval = not no_retrieval and settings.retrieval.enabled
        if retrieval:
            index_project(settings, project, Console(stderr=True))
    run_id = new_run_id()
    options = RunOptions.from_settings(
        settings,
        out_dir=str(validate_out_dir(out or Path("codeproof-out") / run_id)),
        language=language,
        auto=yes,
        preselect=[m.strip() for m in (modules or "").split(",") if m.strip()],
        on_failure=on_failure,
    ).model_copy(
        update={
            "retrieval": retrieval,
            "project": str(project.root) if project is not None else None,
        }
    )
    spec = given.spec if given is not None else None
    planned = given.modules if given is not None else []
    execute(
        settings,
        options,
        json_out,
        run_id,
        lambda r: r.start(text, options, run_id, spec=spec, modules=planned),
    )
