"""Per-module nodes: plan, tests ‖ code, execute, repair, escalate, finish."""

from __future__ import annotations

import logging
from typing import Any, Literal

from langgraph.types import interrupt

from codeproof.agents import input_designer, planner, programmer, repairer, test_designer
from codeproof.choosing.examples import stated_in
from codeproof.choosing.probing import RunProgram
from codeproof.choosing.selection import Choice, choose, choose_or_draw
from codeproof.core.types import (
    Module,
    ModuleOutcome,
    ModulePlan,
    ProgramRun,
    SourceFile,
    TestReport,
)
from codeproof.engine.scan import scan_module
from codeproof.workflow.deps import Deps
from codeproof.workflow.logic import as_dict, code_hash, failing_tests, likely_cause
from codeproof.workflow.models import (
    AttemptRecord,
    EscalationDecision,
    FailureReport,
    Work,
    WorkflowState,
)
from codeproof.workflow.nodes import _analyze, checklist_of, outcomes_of, spec_of

logger = logging.getLogger(__name__)

Update = dict[str, Any]


def current_module(state: WorkflowState) -> Module:
    return checklist_of(state)[state.get("current", 0)]


def work_of(state: WorkflowState) -> Work:
    return Work.model_validate(state.get("work") or {})


def _scope(node: str, module: Module, work: Work, *, attempt: bool = False) -> str:
    base = f"{node}:{module.name}:r{work.round}"
    return f"{base}:a{work.attempts_total}" if attempt else base


def _dependencies(state: WorkflowState, module: Module) -> tuple[list[Module], dict[str, str]]:
    """The modules ``module`` depends on and the final source files of those built."""
    mods = [m for m in checklist_of(state) if m.name in module.depends_on]
    files: dict[str, str] = {}
    for outcome in outcomes_of(state):
        if outcome.module.name in module.depends_on:
            files.update(outcome.files)
    return mods, files


def plan(deps: Deps, state: WorkflowState) -> Update:
    """The steps to build the current module (a new round starts here)."""
    module, work = current_module(state), work_of(state)
    result: ModulePlan = planner.plan_module(
        deps.model_for(_scope("plan", module, work)), spec_of(state), module
    )
    conventions = deps.toolchain(module.language).conventions()
    fresh = work.model_copy(
        update={
            "conventions": conventions,
            "plan": result.steps,
            "files": None,
            "report": None,
            "stuck": False,
            "attempt": 0,
        }
    )
    return {"work": fresh.model_dump(mode="json")}


def design_tests(deps: Deps, state: WorkflowState) -> Update:
    """Test Designer: tests from the spec, interface and examples only (never the code).

    With several candidates to compare, the input designer then proposes edge-case inputs
    for probing them (also from the spec only).
    """
    module, work = current_module(state), work_of(state)
    dep_modules, _ = _dependencies(state, module)
    model = deps.model_for(_scope("tests", module, work))
    draft = test_designer.design_tests(
        model, spec_of(state), module, work.conventions, dependencies=dep_modules
    )
    n = deps.options.probe_inputs if deps.options.candidates > 1 else 0
    inputs = input_designer.propose_inputs(model, spec_of(state), module, n=n) if n else []
    return {"tests": [f.model_dump() for f in draft.files], "probe_inputs": inputs}


def write_code(deps: Deps, state: WorkflowState) -> Update:
    """Programmer: ``n`` candidate implementations from the spec, plan and conventions."""
    drafts = _write(deps, state, deps.options.candidates)
    return {"candidates": [[f.model_dump() for f in files] for files in drafts]}


def _write(deps: Deps, state: WorkflowState, n: int, first: int = 0) -> list[list[SourceFile]]:
    """The files of programmer candidates ``first`` .. ``first + n - 1``."""
    module, work = current_module(state), work_of(state)
    _, dep_files = _dependencies(state, module)
    drafts = programmer.write_code(
        deps.model_for(_scope("code", module, work)),
        spec_of(state),
        module,
        ModulePlan(steps=work.plan),
        work.conventions,
        context=deps.context,
        dependency_files=dep_files or None,
        n=n,
        first=first,
    )
    return [d.files for d in drafts]


def _run(
    deps: Deps, state: WorkflowState, module: Module, files: dict[str, str], tests: dict[str, str]
) -> TestReport:
    """One test run in the sandbox (no run when there is no test to run)."""
    if not tests:
        return TestReport(message="the test designer wrote no tests for this module")
    _, dep_files = _dependencies(state, module)
    sources = {p: c for p, c in {**dep_files, **files}.items() if p not in tests}
    client = deps.toolchain(module.language)
    try:
        return client.run_tests(sources, tests)
    finally:
        deps.record_tool_calls(module.language)


def _run_program(deps: Deps, state: WorkflowState, module: Module) -> RunProgram:
    """One program run (a probe) of a candidate with its dependencies, in the sandbox."""
    _, dep_files = _dependencies(state, module)
    client = deps.toolchain(module.language)

    def run(files: dict[str, str], args: list[str], timeout_s: float) -> ProgramRun:
        try:
            return client.run({**dep_files, **files}, args, timeout_s=timeout_s)
        finally:
            deps.record_tool_calls(module.language)

    return run


def _user_words(state: WorkflowState) -> str:
    """What the user wrote: the request and the answers to clarifying questions."""
    answers = [str(a.get("answer", "")) for a in state.get("answers", [])]
    return "\n".join([state.get("request", ""), *answers])


def _choose(deps: Deps, state: WorkflowState, module: Module) -> tuple[Choice, str]:
    """Choose among the candidates; when the choice misses a stated example, the
    programmer writes ``extra_candidates`` more (the next temperatures, seeds and
    approach hints) and the choice is made again (:func:`~.selection.choose_or_draw`).
    Returns the choice and the note on the draw (empty when none was needed)."""
    candidates = [
        as_dict(SourceFile.model_validate(f) for f in c) for c in state.get("candidates", [])
    ] or [{}]

    def pick(candidates: list[dict[str, str]]) -> Choice:
        return choose(
            lambda files, tests: _run(deps, state, module, files, tests),
            candidates,
            as_dict(SourceFile.model_validate(f) for f in state.get("tests", [])),
            module,
            stated_in(spec_of(state).acceptance_examples, _user_words(state)),
            _run_program(deps, state, module),
            state.get("probe_inputs", []),
        )

    def draw(n: int, first: int) -> list[dict[str, str]]:
        return [as_dict(files) for files in _write(deps, state, n, first=first)]

    _, choice, drawn = choose_or_draw(pick, candidates, deps.options.extra_candidates, draw)
    return choice, drawn


def execute(deps: Deps, state: WorkflowState) -> Update:
    """Run the tests in the sandbox; choose among candidates by execution agreement.

    The first run of a round tries every candidate (:func:`~.selection.choose`), keeps
    the one the evidence trusts most and quarantines the tests no candidate can pass.
    """
    module, work = current_module(state), work_of(state)
    update: Update = {}
    tests = work.tests
    change, changes = work.change, list(work.test_changes)
    if work.files is None:  # fresh code from the programmer (and fresh tests)
        choice, drawn = _choose(deps, state, module)
        files, tests, report = choice.files, choice.tests, choice.report
        if len(choice.reports) > 1 or choice.quarantined:
            change = f"{drawn}; then {choice.note}" if drawn else choice.note
        if choice.quarantined:
            changes.append(choice.note)
        update["candidates"] = []
        update["probe_inputs"] = []
    else:
        files = work.files
        report = _run(deps, state, module, files, tests)
    digest = code_hash(files)
    previous = work.history[-1] if work.history else None
    stuck = (
        not report.green
        and previous is not None
        and previous.code_hash == digest
        and work.attempt > 0
    )
    record = AttemptRecord(
        attempt=work.attempts_total + 1,
        change=change,
        passed=report.passed,
        total=report.total,
        code_hash=digest,
    )
    new = work.model_copy(
        update={
            "files": files,
            "tests": tests,
            "test_changes": changes,
            "change": change,
            "report": report,
            "attempt": work.attempt + 1,
            "attempts_total": work.attempts_total + 1,
            "history": [*work.history, record],
            "stuck": stuck,
            "verdict": "passed" if report.green else None,
        }
    )
    update["work"] = new.model_dump(mode="json")
    return update


def after_execute(deps: Deps, state: WorkflowState) -> Literal["finish", "repair", "escalate"]:
    work = work_of(state)
    if work.verdict == "passed":
        return "finish"
    if not work.tests or work.stuck or work.attempt >= deps.options.max_attempts:
        return "escalate"  # nothing a code repair can fix, stuck, or out of attempts
    return "repair"


def repair(deps: Deps, state: WorkflowState) -> Update:
    """Repairer: fix the code from the failing tests; a test only with a stated reason."""
    module, work = current_module(state), work_of(state)
    assert work.files is not None and work.report is not None
    result = repairer.repair(
        deps.model_for(_scope("repair", module, work, attempt=True)),
        spec_of(state),
        module,
        work.files,
        work.tests,
        work.report,
        hint=work.hint,
        history=[h.change for h in work.history],
        temperature=0.0 if work.round == 0 else 0.7,  # a retry after escalation must vary
    )
    files = {**work.files, **as_dict(result.files)}
    tests, changes = work.tests, list(work.test_changes)
    if result.test_files and result.test_change_reason:
        tests = {**tests, **as_dict(result.test_files)}
        changes.append(result.test_change_reason)
    new = work.model_copy(
        update={
            "files": files,
            "tests": tests,
            "test_changes": changes,
            "change": result.change_summary or "repair",
        }
    )
    return {"work": new.model_dump(mode="json")}


def failure_report(state: WorkflowState) -> FailureReport:
    """What the human sees when a module exhausted its attempts."""
    module, work = current_module(state), work_of(state)
    assert work.report is not None
    return FailureReport(
        spec=spec_of(state),
        module=module,
        attempts=work.attempt,
        stuck=work.stuck,
        failing=failing_tests(work.report),
        history=work.history,
        likely_cause=likely_cause(
            work.report, work.history, work.stuck, has_tests=bool(work.tests)
        ),
        files=work.files or {},
        tests=work.tests,
    )


def escalate(deps: Deps, state: WorkflowState) -> Update:
    """Ask the human (or apply ``on_failure``): react, continue or stop."""
    policy = deps.options.on_failure
    if policy == "ask":
        report = failure_report(state)
        decision = EscalationDecision.model_validate(interrupt(report.model_dump(mode="json")))
    else:
        decision = EscalationDecision(action=policy)
    work = work_of(state)
    if decision.action != "react":
        failed = work.model_copy(update={"verdict": "failed"})
        return {"work": failed.model_dump(mode="json"), "stopped": decision.action == "stop"}
    return _react(deps, state, work, decision)


def _react(deps: Deps, state: WorkflowState, work: Work, decision: EscalationDecision) -> Update:
    hints = [*work.hints, decision.hint] if decision.hint else work.hints
    new = work.model_copy(
        update={
            "round": work.round + 1,
            "attempt": 0,
            "stuck": False,
            "hint": decision.hint,
            "hints": hints,
            "verdict": None,
        }
    )
    update: Update = {}
    if not work.tests:  # no tests to satisfy: start the module over (new tests and code)
        new = new.model_copy(update={"files": None})
    if decision.request:
        update["request"] = decision.request
        spec = _analyze(deps, state, decision.request, f"reanalyze::r{new.round}")
        update["spec"] = spec.model_dump(mode="json")
        new = new.model_copy(update={"files": None})
    if decision.spec:
        update["spec"] = decision.spec.model_dump(mode="json")
        new = new.model_copy(update={"files": None})
    if decision.module:
        checklist = list(state["checklist"])
        checklist[state.get("current", 0)] = decision.module.model_dump(mode="json")
        update["checklist"] = checklist
        new = new.model_copy(update={"files": None})
    resume_at: Literal["plan", "execute", "repair"] = "repair"
    if new.files is None:
        resume_at = "plan"
    elif decision.files:
        resume_at = "execute"
        new = new.model_copy(
            update={"files": {**new.files, **decision.files}, "change": "edited by hand"}
        )
    update["work"] = new.model_copy(update={"resume_at": resume_at}).model_dump(mode="json")
    return update


def after_escalate(state: WorkflowState) -> Literal["finish", "plan", "execute", "repair"]:
    work = work_of(state)
    if work.verdict == "failed" or work.resume_at is None:
        return "finish"
    return work.resume_at


def finish(deps: Deps, state: WorkflowState) -> Update:
    """Security-scan the module and record its outcome; move to the next module."""
    module, work = current_module(state), work_of(state)
    files = work.files or {}
    outcome = ModuleOutcome(
        module=module,
        files=files,
        tests=work.tests,
        status="passed" if work.verdict == "passed" else "failed",
        attempts=work.attempts_total,
        report=work.report,
        scan=scan_module(files, module.language),
        test_changes=work.test_changes,
    )
    outcomes = [*state.get("outcomes", []), outcome.model_dump(mode="json")]
    current = state.get("current", 0) + 1
    checklist = checklist_of(state)
    if state.get("stopped"):
        outcomes += [
            ModuleOutcome(module=m, status="skipped").model_dump(mode="json")
            for m in checklist[current:]
        ]
        current = len(checklist)
    return {
        "outcomes": outcomes,
        "current": current,
        "work": {},
        "tests": [],
        "candidates": [],
        "probe_inputs": [],
    }


def after_finish(state: WorkflowState) -> Literal["plan", "document"]:
    return "plan" if state.get("current", 0) < len(state.get("checklist", [])) else "document"
