"""Per-module nodes: thin adapters over the engine (:mod:`codeproof.engine`).

Each node builds the module's engine :class:`~codeproof.engine.context.Context` from the
run's ``Deps`` and state, calls one engine step and returns the partial state. The
graph's edges ask :func:`codeproof.engine.policy.next_step`, as the evaluation's loop
does; only the escalation (a human's decision) is the graph's own.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from langgraph.types import interrupt

from codeproof.agents import programmer
from codeproof.contract.spec_examples import module_examples
from codeproof.contract.worked import worked_examples
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Module, Spec, TestReport
from codeproof.engine import loop
from codeproof.engine.context import Context, EngineOptions, GateFn, GroundFn, Memo
from codeproof.engine.drafting import begin, first_draft, from_whole
from codeproof.engine.drafting import design_tests as engine_design_tests
from codeproof.engine.executing import execute as engine_execute
from codeproof.engine.policy import next_step
from codeproof.engine.proving import status_of
from codeproof.engine.scan import scan_module
from codeproof.engine.state import Draft, Work
from codeproof.llm.base import ChatModel
from codeproof.workflow.deps import Deps
from codeproof.workflow.logic import failing_tests, likely_cause
from codeproof.workflow.models import EscalationDecision, FailureReport, WorkflowState
from codeproof.workflow.nodes import _analyze, checklist_of, outcomes_of, spec_of, user_words

logger = logging.getLogger(__name__)

Update = dict[str, Any]


def current_module(state: WorkflowState) -> Module:
    return checklist_of(state)[state.get("current", 0)]


def work_of(state: WorkflowState) -> Work:
    return Work.model_validate(state.get("work") or {})


def _dependencies(state: WorkflowState, module: Module) -> tuple[list[Module], dict[str, str]]:
    """The modules ``module`` depends on and the final source files of those built."""
    mods = [m for m in checklist_of(state) if m.name in module.depends_on]
    files: dict[str, str] = {}
    for outcome in outcomes_of(state):
        if outcome.module.name in module.depends_on:
            files.update(outcome.files)
    return mods, files


def engine_options(deps: Deps) -> EngineOptions:
    """The engine's budget from the run's options and settings."""
    options = deps.options
    return EngineOptions(
        max_attempts=options.max_attempts,
        max_drafts=options.candidates,
        probe_inputs=options.probe_inputs,
        timeout_s=deps.settings.sandbox.timeout_s,
        **deps.settings.proof.engine_options(),
    )


def context(deps: Deps, state: WorkflowState) -> Context:
    """The engine's view of the current module."""
    module, spec = current_module(state), spec_of(state)
    dep_modules, dep_files = _dependencies(state, module)
    words = user_words(state)

    def direct(model: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        conventions = work_of(state).conventions or deps.toolchain(module.language).conventions()
        grounded = deps.code_context()
        retrieved = grounded(spec, module) if grounded is not None else ""
        return programmer.write_direct(
            model,
            words,
            module,
            conventions,
            index=index,
            greedy=greedy,
            dependency_files=dep_files or None,
            context=retrieved,
            answers=work_of(state).told,
        )

    return Context(
        spec=spec,
        module=module,
        words=words,
        toolchain=deps.toolchain(module.language),
        model_for=deps.model_for,
        direct=direct,
        examples=module_examples(words, spec.acceptance_examples, module.public_interface),
        worked=worked_examples(words, module, checklist_of(state)),
        options=engine_options(deps),
        dependencies=dep_modules,
        dependency_files=dep_files,
        others=[
            m
            for m in checklist_of(state)
            if m.name != module.name and m.name not in module.depends_on
        ],
        retrieval=deps.code_context(),
        ground=_ground(deps, spec, module),
        project_files=deps.project_sources(),
        gate=_gate(deps, state, module),
        after_tool_call=lambda: deps.record_tool_calls(module.language),
        memo=deps.memos.setdefault(module.name, Memo()),
    )


def _ground(deps: Deps, spec: Spec, module: Module) -> GroundFn | None:
    """Retrieval for the module's plan and repairs (recorded in the audit trail)."""
    if deps.grounder is None:
        return None
    return lambda step, detail: deps.ground(step, spec, module, detail)


def _gate(deps: Deps, state: WorkflowState, module: Module) -> GateFn | None:
    """With ``--project``: the module placed in the project, run with its existing tests."""
    project = deps.project
    if project is None:
        return None

    def gate(files: dict[str, str], tests: dict[str, str]) -> TestReport | None:
        client = deps.toolchain(module.language)
        try:
            return project.gate(client, module.name, files, tests, outcomes_of(state))
        finally:
            deps.record_tool_calls(module.language)

    return gate


def plan(deps: Deps, state: WorkflowState) -> Update:
    """A new round of the current module: conventions and the user's stated examples."""
    work = loop.prepare(context(deps, state), work_of(state))
    return {"work": work.model_dump(mode="json")}


def design_tests(deps: Deps, state: WorkflowState) -> Update:
    """Test Designer: tests from the spec, interface and examples only (never the code)."""
    tests = engine_design_tests(context(deps, state), work_of(state))
    return {"tests": [{"path": p, "content": c} for p, c in tests.items()]}


def write_code(deps: Deps, state: WorkflowState) -> Update:
    """Programmer: the first draft, straight from the user's words (greedy): the module's
    file of the one call that answers the whole request (made once, at the first module,
    and kept in the state), else a call of its own (:func:`answers_whole`). A module
    started over after the person edited it, its spec or the request is drafted from
    their edit, on its own."""
    ctx, work, update = context(deps, state), work_of(state), {}
    whole = state.get("whole")
    if work.round > 0 or not answers_whole(deps):
        return {"candidates": [first_draft(ctx, work).model_dump(mode="json")]}
    if whole is None:
        whole = programmer.write_whole(deps.model_for("whole"), user_words(state)).files
        update["whole"] = whole
    draft = from_whole(ctx, whole) or first_draft(ctx, work)
    return {**update, "candidates": [draft.model_dump(mode="json")]}


def answers_whole(deps: Deps) -> bool:
    """Whether the modules' first drafts come from one call answering the whole request
    (``workflow.whole_draft``): not in an existing project (``--project``) nor with
    retrieval, whose code and documents that call does not see."""
    return deps.options.whole_draft and deps.project is None and deps.code_context() is None


def execute(deps: Deps, state: WorkflowState) -> Update:
    """Run the tests in the sandbox; choose among the drafts by execution."""
    work, ctx = work_of(state), context(deps, state)
    update: Update = {}
    if state.get("candidates"):  # the parallel branches just wrote tests and a first draft
        designed = {t["path"]: t["content"] for t in state.get("tests", [])}
        drafts = [Draft.model_validate(d) for d in state.get("candidates", [])]
        work = begin(ctx, work, designed, drafts)
        update = {"candidates": [], "tests": []}
    work = engine_execute(ctx, work)
    return {**update, "work": work.model_dump(mode="json")}


def after_execute(
    deps: Deps, state: WorkflowState
) -> Literal["finish", "draw", "repair", "escalate"]:
    work = work_of(state)
    return next_step(work, engine_options(deps), context(deps, state).language)


def draw(deps: Deps, state: WorkflowState) -> Update:
    """More drafts (a rung of the evidence ladder); the next execution chooses again."""
    work = loop.advance(context(deps, state), work_of(state), "draw")
    return {"work": work.model_dump(mode="json")}


def repair(deps: Deps, state: WorkflowState) -> Update:
    """Repairer: fix the code from the failing tests; a test only with a stated reason."""
    work = loop.advance(context(deps, state), work_of(state), "repair")
    return {"work": work.model_dump(mode="json")}


def failure_report(state: WorkflowState) -> FailureReport:
    """What the human sees when a module exhausted its attempts (its best attempt)."""
    module, work = current_module(state), loop.settle(work_of(state), "escalate")
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
    work = loop.settle(work_of(state), "escalate")
    if decision.action != "react":
        return {"work": work.model_dump(mode="json"), "stopped": decision.action == "stop"}
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
            "repaired": True,  # the round goes on from this code: no new drafts
            "seen": [],
        }
    )
    update: Update = {}
    restart = not work.tests  # no tests to satisfy: start the module over
    if decision.request:
        update["request"] = decision.request
        update["whole"] = None  # the next modules start from the new request's answer
        spec = _analyze(deps, state, decision.request, f"reanalyze::r{new.round}")
        update["spec"] = spec.model_dump(mode="json")
        restart = True
    if decision.spec:
        update["spec"] = decision.spec.model_dump(mode="json")
        restart = True
    if decision.module:
        checklist = list(state["checklist"])
        checklist[state.get("current", 0)] = decision.module.model_dump(mode="json")
        update["checklist"] = checklist
        restart = True
    resume_at: Literal["plan", "execute", "repair"] = "repair"
    if restart:
        resume_at = "plan"
    elif decision.files:
        resume_at = "execute"
        new = new.model_copy(
            update={"files": {**(new.files or {}), **decision.files}, "change": "edited by hand"}
        )
    update["work"] = new.model_copy(update={"resume_at": resume_at}).model_dump(mode="json")
    return update


def after_escalate(state: WorkflowState) -> Literal["finish", "plan", "execute", "repair"]:
    work = work_of(state)
    if work.verdict == "failed" or work.resume_at is None:
        return "finish"
    return work.resume_at


def finish(deps: Deps, state: WorkflowState) -> Update:
    """Security-scan the module and record its outcome (its status as strong as its
    proof); move to the next module."""
    module, work = current_module(state), work_of(state)
    if work.proof is None:  # proven modules are settled already
        work = loop.settle(work, "finish" if work.verdict == "passed" else "escalate")
    files = work.files or {}
    outcome = ModuleOutcome(
        module=module,
        files=files,
        tests=work.tests,
        status=status_of(work),
        attempts=work.attempts_total,
        report=work.report,
        scan=scan_module(files, module.language),
        test_changes=work.test_changes,
        proof=work.proof,
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
