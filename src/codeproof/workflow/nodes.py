"""Run-level nodes: intake, analyze, modules, document, assemble.

Every node is ``(deps, state) -> partial state`` and safe to run again: model calls go
through :meth:`Deps.model_for` (replayed when already completed) and human questions
through LangGraph's ``interrupt`` (answered once, replayed on re-execution).
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langgraph.types import interrupt

from codeproof.agents import analyst, documenter, planner
from codeproof.contract.assumed import kept_assumptions
from codeproof.contract.examples import stated_examples
from codeproof.contract.files import stated_files
from codeproof.contract.names import fit_modules, stated_names
from codeproof.contract.quotes import requoted
from codeproof.contract.rules import open_questions
from codeproof.contract.spec_examples import fewer_invented
from codeproof.contract.worked import passages
from codeproof.core.errors import WorkflowError
from codeproof.core.grounding import Citation
from codeproof.core.reports import ModuleOutcome, ModuleReport, RunReport
from codeproof.core.types import QA, Docs, Module, Spec
from codeproof.languages.registry import layout_for, normalize_language
from codeproof.workflow.assemble import assemble_project
from codeproof.workflow.deps import Deps
from codeproof.workflow.logic import usage_of
from codeproof.workflow.models import (
    ClarifyAnswer,
    ClarifyRequest,
    ModuleSelection,
    ModulesRequest,
    WorkflowState,
)
from codeproof.workflow.project import planned_changes
from codeproof.workflow.project_apply import apply_project

logger = logging.getLogger(__name__)

Update = dict[str, Any]


def spec_of(state: WorkflowState) -> Spec:
    return Spec.model_validate(state["spec"])


def checklist_of(state: WorkflowState) -> list[Module]:
    return [Module.model_validate(m) for m in state.get("checklist", [])]


def outcomes_of(state: WorkflowState) -> list[ModuleOutcome]:
    return [ModuleOutcome.model_validate(o) for o in state.get("outcomes", [])]


def user_words(state: WorkflowState) -> str:
    """What the user wrote: the request and the answers to clarifying questions."""
    answers = [str(a.get("answer", "")) for a in state.get("answers", [])]
    return "\n".join([state.get("request", ""), *answers])


def intake(deps: Deps, state: WorkflowState) -> Update:
    """Engage with the request; ask clarifying questions (interrupt) while needed."""
    opts = deps.options
    if opts.max_clarify_rounds == 0:  # no questions allowed: the analysis states assumptions
        return {"intake_done": True, "assumptions": []}
    if opts.auto:  # nobody answers (--yes): no model guesses go to the analysis as
        return {"intake_done": True, "assumptions": _gaps(state)[1]}  # "accepted by the user"
    done_rounds = state.get("clarify_round", 0)
    answers = [QA.model_validate(a) for a in state.get("answers", [])]
    clar = analyst.clarify(
        deps.model_for(f"intake::r{done_rounds}"),
        state["request"],
        answers,
        round=done_rounds + 1,
        max_rounds=opts.max_clarify_rounds,
    )
    assumptions = list(clar.assumptions)
    questions = list(clar.questions)
    if done_rounds == 0:  # the contract left open: ask before guessing
        asked, assumed = _gaps(state)
        questions = list(dict.fromkeys([*questions, *asked]))[: analyst.MAX_QUESTIONS]
        assumptions += assumed
    if not questions or done_rounds >= opts.max_clarify_rounds:
        return {"intake_done": True, "assumptions": assumptions}
    question = ClarifyRequest(
        round=done_rounds + 1,
        max_rounds=opts.max_clarify_rounds,
        reply=clar.reply,
        questions=questions,
        assumptions=assumptions,
    )
    answer = ClarifyAnswer.model_validate(interrupt(question.model_dump(mode="json")))
    if answer.proceed:
        return {"intake_done": True, "assumptions": assumptions}
    given = [a for a in answer.answers if a.strip()]
    if len(given) == len(questions):
        new = [QA(question=q, answer=a) for q, a in zip(questions, given, strict=True)]
    else:
        new = [QA(question=" ".join(questions), answer="\n".join(given))]
    return {
        "answers": [a.model_dump() for a in [*answers, *new]],
        "clarify_round": done_rounds + 1,
        "intake_done": done_rounds + 1 >= opts.max_clarify_rounds,
        "assumptions": [],
    }


def _gaps(state: WorkflowState) -> tuple[list[str], list[str]]:
    """What the request leaves open (:func:`open_questions`): the questions to ask, and
    what is assumed without an answer."""
    words = user_words(state)
    # worked examples ("with capacity 2, put(...), ... so keys() is [a, c]") count too
    gaps = open_questions(words, [*stated_examples(words, stated_names(words)), *passages(words)])
    return [g.question for g in gaps], [g.assumption for g in gaps]


def fit_language(deps: Deps, language: str) -> str | None:
    """The canonical name of ``language`` if a toolchain serves it."""
    canonical = normalize_language(language)
    return canonical if canonical in deps.languages else None


def analyze(deps: Deps, state: WorkflowState) -> Update:
    """Requirements Analyzer: the structured spec."""
    spec = _analyze(deps, state, state["request"], "analyze")
    return {"spec": spec.model_dump(mode="json")}


def _analyze(deps: Deps, state: WorkflowState, request: str, scope: str) -> Spec:
    opts = deps.options
    answers = [QA.model_validate(a) for a in state.get("answers", [])]
    accepted = list(state.get("assumptions", []))
    spec = analyst.analyze(
        deps.model_for(scope),
        request,
        answers,
        language=opts.language,
        assumptions=accepted,
    )
    language = fit_language(deps, spec.language)
    words = "\n".join([request, *(qa.answer for qa in answers)])
    assumptions, dropped = kept_assumptions(spec.assumptions, accepted, words)
    if dropped:
        logger.info("assumptions the request rules out, dropped: %s", "; ".join(dropped))
    if language is None:
        language = deps.languages[0]
        assumptions.append(f"no toolchain for {spec.language!r}; the code is written in {language}")
    examples = fewer_invented(requoted(spec.acceptance_examples, words), words, spec.interfaces)
    return spec.model_copy(
        update={"language": language, "assumptions": assumptions, "acceptance_examples": examples}
    )


def modules(deps: Deps, state: WorkflowState) -> Update:
    """Extract modules in dependency order; the human confirms or edits the checklist."""
    opts = deps.options
    spec = spec_of(state)
    proposed = planner.extract_modules(
        deps.model_for("modules"), spec, context=lambda: deps.ground("modules", spec, None)
    )
    words = "\n".join(
        [state.get("request", ""), *(a.get("answer", "") for a in state.get("answers", []))]
    )
    proposed = fit_modules(proposed, words, layout_for(spec.language), spec.interfaces)
    stated = [f.stem for f in stated_files(words, layout_for(spec.language))]
    if opts.preselect:
        chosen = [m for m in proposed if m.name in opts.preselect]
        if not chosen:
            raise WorkflowError(
                f"none of --modules {', '.join(opts.preselect)} was proposed "
                f"(proposed: {', '.join(m.name for m in proposed)})",
                run_id=deps.run_id,
            )
    elif opts.auto:
        chosen = proposed
    else:
        changes = planned_changes(deps.project, proposed) if deps.project else []
        request = ModulesRequest(spec=spec, modules=proposed, changes=changes)
        chosen = ModuleSelection.model_validate(interrupt(request.model_dump(mode="json"))).modules
    checklist = planner.order_modules(chosen, language=spec.language, strict=False, stated=stated)
    return {
        "checklist": [m.model_dump(mode="json") for m in checklist],
        "current": 0,
        "outcomes": [],
        "work": {},
    }


def document(deps: Deps, state: WorkflowState) -> Update:
    """Documentation Generator: README and API docs."""
    docs = documenter.document(deps.model_for("document"), spec_of(state), outcomes_of(state))
    return {"docs": docs.model_dump(mode="json")}


def run_report(deps: Deps, state: WorkflowState) -> RunReport:
    """The run report: modules from the state, usage from the audit trail."""
    events = deps.store.events(deps.run_id, "llm_call")
    info = deps.store.get_run(deps.run_id)
    spec = spec_of(state)
    now = time.time()
    return RunReport(
        run_id=deps.run_id,
        title=spec.title,
        language=spec.language,
        request=state["request"],
        provider=deps.model.name,
        model=deps.model.model,
        started_at=datetime.fromtimestamp(info.created, UTC).isoformat(),
        finished_at=datetime.fromtimestamp(now, UTC).isoformat(),
        duration_s=round(now - info.created, 3),
        modules=[
            ModuleReport.from_outcome(o, usage_of(events, o.module.name))
            for o in outcomes_of(state)
        ],
        usage=usage_of(events),
        retrieved=[
            Citation.model_validate(c)
            for e in deps.store.events(deps.run_id, "retrieval")
            for c in e.payload.get("citations", [])
        ],
    )


def assemble(deps: Deps, state: WorkflowState) -> Update:
    """Write the runnable project and the report to the output directory (and, with
    ``--project``, the changes in place)."""
    docs = Docs.model_validate(state["docs"])
    report = run_report(deps, state)
    if deps.project is not None:
        client = deps.toolchain(deps.project.language)
        applied = apply_project(deps.project, client, outcomes_of(state), deps.run_id)
        deps.record_tool_calls(deps.project.language)
        report = report.model_copy(update={"project": applied})
    out = Path(deps.options.out_dir)
    path = assemble_project(out, spec_of(state), outcomes_of(state), docs, report)
    return {"project_dir": str(path)}
