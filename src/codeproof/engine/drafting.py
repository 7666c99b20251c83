"""Writing: the tests (from the specification only), the first draft, and more drafts.

The first draft completes the user's own words as written (greedy): it is what one model
call would give, so the engine starts where a single call ends. More drafts are drawn
only while the evidence is against the current choice (:mod:`.policy`), a rung at a
time, alternating the programmer's reading of the specification and plan with sampled
completions of the user's words: a misreading shared by one kind is often absent from
the other.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from codeproof.agents import input_designer, planner, programmer, test_designer, transcriber
from codeproof.choosing.interface import declared, declared_top_level, names_of
from codeproof.contract.rules import Rule, invariants, render, rules
from codeproof.contract.worked import marked, ungrounded
from codeproof.core.errors import ContextLengthError
from codeproof.core.types import Module, ModulePlan
from codeproof.engine.context import Context
from codeproof.engine.state import Draft, Work, answer_unmet, drafts_of
from codeproof.languages.test_edit import drop_foreign, drop_repeated
from codeproof.llm.base import ChatModel

logger = logging.getLogger(__name__)

T = TypeVar("T")


def scope(step: str, ctx: Context, work: Work, *, attempt: bool = False) -> str:
    """The deterministic name of one step's model calls (``step:module:rN[:aM]``)."""
    base = f"{step}:{ctx.module.name}:r{work.round}"
    return f"{base}:a{work.attempts_total}" if attempt else base


def design_tests(ctx: Context, work: Work) -> dict[str, str]:
    """The test designer's tests for the module (it never sees any code), and at the same
    time the tests of the user's worked examples; none of a kind when the request does
    not fit the model's context (the stated examples still test the code)."""
    stated = rules(ctx.words)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine-worked") as pool:
        worked = pool.submit(worked_tests, ctx, work)
        try:
            designed = _designed(ctx, work, stated)
        except ContextLengthError as exc:
            logger.warning("%s: no designed tests: %s", ctx.module.name, exc)
            designed = {}
        return {**designed, **worked.result()}


def worked_tests(ctx: Context, work: Work) -> dict[str, str]:
    """The transcriber's test of the user's worked examples, kept only when every value
    it uses is written in them (then its tests count as the user's examples)."""
    path_of = ctx.language.layout.worked_test_path
    if not ctx.worked or path_of is None:
        return {}
    path = path_of(ctx.module.name)
    try:
        files = transcriber.transcribe(
            ctx.model_for(scope("worked", ctx, work)),
            ctx.module,
            work.conventions,
            ctx.worked,
            path,
            dependencies=ctx.dependencies,
        )
    except ContextLengthError as exc:
        logger.warning("%s: no tests of the worked examples: %s", ctx.module.name, exc)
        return {}
    files = tests_fitted(ctx, files)
    said = "\n".join([*ctx.worked, ctx.module.public_interface])
    modules = {ctx.module.name, *(d.name for d in ctx.dependencies)}
    kept = {}
    for name, source in files.items():
        loose = ungrounded(source, ctx.module.language, said, modules)
        if loose:
            logger.info("%s: worked-example test dropped, values not stated: %s",
                        ctx.module.name, ", ".join(loose[:5]))  # fmt: skip
        elif ctx.language.layout.count_tests(source):
            kept[name] = marked(source, ctx.module.language)
    return kept


def _designed(ctx: Context, work: Work, stated: list[Rule]) -> dict[str, str]:
    options = ctx.options
    draft = test_designer.design_tests(
        ctx.model_for(scope("tests", ctx, work)),
        ctx.spec,
        ctx.module,
        work.conventions,
        dependencies=ctx.dependencies,
        rules=render(stated),
        invariants=[rule.id for rule in invariants(stated)],
        min_tests=options.min_tests,
        max_tests=options.max_tests,
    )
    return tests_fitted(ctx, {f.path: f.content for f in draft.files})


def tests_fitted(ctx: Context, files: dict[str, str]) -> dict[str, str]:
    """Test ``files`` fitted to what the module and its dependencies declare, where the
    language can (``Editing.fit_tests``): a test the stated interface rules out (a name
    imported from the wrong module, a function called as a method, an import of a name
    only a module built apart declares) fails every draft that builds what was asked,
    whatever it tests."""
    fit = ctx.language.editing.fit_tests
    if fit is None:
        return files
    interfaces = [declared(m) for m in (ctx.module, *ctx.dependencies)]
    elsewhere = _names(ctx.others) - _names([ctx.module, *ctx.dependencies])
    out = {path: fit(source, interfaces, elsewhere) for path, source in files.items()}
    changed = [path for path in files if out[path] != files[path]]
    if changed:
        logger.info("%s: tests fitted to the interface: %s", ctx.module.name, ", ".join(changed))
    return out


def _names(modules: Sequence[Module]) -> set[str]:
    """Every name the interfaces of ``modules`` declare."""
    return {name for module in modules for name in names_of(declared(module))}


def begin(ctx: Context, work: Work, designed: dict[str, str], drafts: list[Draft]) -> Work:
    """The work with the tests as designed and the first drafts, ready to execute; the
    tests that repeat an earlier one (:func:`drop_repeated`) and those that test only
    another module's names (:func:`drop_foreign`) are dropped, and each drop is one of
    the module's test changes, so the report says why the file has fewer tests than the
    designer wrote."""
    language = ctx.module.language
    tests, repeats = drop_repeated(language, designed)
    own = _names([ctx.module])
    foreign = _names([*ctx.dependencies, *ctx.others]) - own
    tests, others = drop_foreign(language, tests, own, foreign)
    changes = list(work.test_changes)
    for dropped, why in ((repeats, "repeating an earlier one"), (others, "of other modules")):
        if dropped:
            changes.append(f"dropped {len(dropped)} designed test(s) {why}: {', '.join(dropped)}")
            logger.info("%s: %s", ctx.module.name, changes[-1])
    update = {"designed": tests, "drafts": drafts, "files": None, "test_changes": changes}
    return work.model_copy(update=update)


def fitted(ctx: Context, files: dict[str, str]) -> dict[str, str]:
    """``files`` with their imports of the module's dependencies fitted to what those
    export (:attr:`~codeproof.languages.base.Editing.fit_to_dependencies`); the names
    the module's interface declares stay its own."""
    fit = ctx.language.editing.fit_to_dependencies
    if fit is None or not ctx.dependency_files:
        return files
    owns, own = ctx.language.layout.owns, declared_top_level(ctx.module)
    deps = ctx.dependency_files
    return {p: fit(c, p, deps, own) if owns(p) else c for p, c in files.items()}


def first_draft(ctx: Context, work: Work) -> Draft:
    """The greedy completion of the user's own words (what one call would give)."""
    files = fitted(ctx, ctx.direct(ctx.model_for(scope("draft", ctx, work)), 0, True))
    return Draft(files=files, source="direct", index=0, note="the user's words, greedy")


def from_whole(ctx: Context, files: Mapping[str, str]) -> Draft | None:
    """The first draft taken from the one call that answered the whole request
    (:func:`~codeproof.agents.programmer.write_whole`): the module's source file of that
    reply, cleaned up (:attr:`~codeproof.languages.base.Editing.fix_source`) and fitted to
    the dependencies' files; ``None`` when the reply has no such file.

    The pipeline starts from what one call gives and spends more calls only where the
    evidence is against it: java-lru-cache's one call met all 9 acceptance checks, while
    the module's own greedy draft, written from the planned module, counted a replacing
    ``put`` in its size; every draft drawn after it did too, and the shipped class met 6.
    """
    path = ctx.language.layout.source_path(ctx.module.name)
    content = files.get(path, "")
    if not content.strip():
        return None
    tidy = ctx.language.editing.fix_source
    note = "the whole request in one call, greedy"
    return Draft(
        files=fitted(ctx, {path: tidy(content, path)}), source="direct", index=0, note=note
    )


def draw(ctx: Context, work: Work) -> Work:
    """One rung of the ladder: up to ``options.rung`` more drafts, and (once) the plan the
    programmer writes from and the probe inputs that tell drafts apart."""
    spec_first = len(drafts_of(work, "spec"))
    direct_first = len(drafts_of(work, "direct"))
    n_spec, n_direct = _kinds(ctx, work, spec_first, direct_first)
    plan = work.plan or (_plan(ctx, work) if n_spec else [])
    inputs = work.inputs or _inputs(ctx, work)
    coder = ctx.model_for(scope("code", ctx, work))
    spec_job = _spec_drafts(ctx, work, coder, plan, n_spec, spec_first)
    told = answer_unmet(work)  # the first draft written with the answers is greedy
    direct_jobs = [
        _direct_draft(ctx, work, direct_first + k, told and k == 0) for k in range(n_direct)
    ]
    jobs = [_fitting(ctx, job) for job in (spec_job, *direct_jobs)]
    results = _concurrently(coder.slots, jobs)
    drafts = [d for batch in results for d in batch]
    if work.repaired and work.files:  # the repaired code stays a candidate of the choice
        repaired = len(drafts_of(work, "repair"))
        drafts.insert(0, Draft(files=work.files, source="repair", index=repaired, note=work.change))
    logger.info("%s: rung %d drew %d draft(s)", ctx.module.name, work.rung + 1, len(drafts))
    return work.model_copy(
        update={
            "plan": plan,
            "inputs": inputs,
            "drafts": [*work.drafts, *drafts],
            "rung": work.rung + 1,
            "files": None,
            "informed": len(work.told),
        }
    )


def _kinds(ctx: Context, work: Work, spec_first: int, direct_first: int) -> tuple[int, int]:
    """How many spec and direct drafts the rung draws: the ladder's room, alternating
    (the kind with fewer drafts first; the first draft is direct), or a full rung of
    direct drafts written with the person's answers when the code misses one of them
    (:func:`~codeproof.engine.state.answer_unmet`)."""
    if answer_unmet(work):
        return 0, ctx.options.rung
    room = ctx.options.max_drafts - len(work.drafts)
    n_spec, n_direct = 0, 0
    for _ in range(max(0, min(ctx.options.rung, room))):
        if spec_first + n_spec < direct_first + n_direct:
            n_spec += 1
        else:
            n_direct += 1
    return n_spec, n_direct


def _fitting(ctx: Context, job: Callable[[], list[Draft]]) -> Callable[[], list[Draft]]:
    """``job``, drawing nothing when its request does not fit the model's context (the
    rung goes on with the other drafts; the ladder's rungs are bounded)."""

    def run() -> list[Draft]:
        try:
            return job()
        except ContextLengthError as exc:
            logger.warning("%s: a draft was not drawn: %s", ctx.module.name, exc)
            return []

    return run


def _plan(ctx: Context, work: Work) -> list[str]:
    try:
        result: ModulePlan = planner.plan_module(
            ctx.model_for(scope("plan", ctx, work)),
            ctx.spec,
            ctx.module,
            context=ctx.grounding("plan"),
        )
    except ContextLengthError as exc:
        logger.warning("%s: no plan: %s", ctx.module.name, exc)
        return []
    return list(result.steps)


def _inputs(ctx: Context, work: Work) -> list[str]:
    if not ctx.options.probe_inputs or ctx.language.choosing.prober is None:
        return []
    try:
        return input_designer.propose_inputs(
            ctx.model_for(scope("inputs", ctx, work)),
            ctx.spec,
            ctx.module,
            n=ctx.options.probe_inputs,
        )
    except ContextLengthError as exc:
        logger.warning("%s: no probe inputs: %s", ctx.module.name, exc)
        return []


def _spec_drafts(
    ctx: Context, work: Work, model: ChatModel, plan: list[str], n: int, first: int
) -> Callable[[], list[Draft]]:
    def job() -> list[Draft]:
        if n == 0:
            return []
        written = programmer.write_code(
            model,
            ctx.spec,
            ctx.module,
            ModulePlan(steps=plan),
            work.conventions,
            context=ctx.retrieval,
            dependency_files=ctx.dependency_files or None,
            n=n,
            first=first,
        )
        return [
            Draft(
                files=fitted(ctx, {f.path: f.content for f in d.files}),
                source="spec",
                index=first + i,
                note=d.notes,
            )
            for i, d in enumerate(written)
        ]

    return job


def _direct_draft(ctx: Context, work: Work, index: int, greedy: bool) -> Callable[[], list[Draft]]:
    def job() -> list[Draft]:
        model = ctx.model_for(scope("draft", ctx, work))
        files = fitted(ctx, ctx.direct(model, index, greedy))
        words = "the user's words and answers" if work.told else "the user's words"
        note = f"{words}, {'greedy' if greedy else 'sampled'}"
        return [Draft(files=files, source="direct", index=index, note=note)]

    return job


def _concurrently(slots: int, jobs: list[Callable[[], T]]) -> list[T]:
    """Run model jobs at once up to the model's slots (order kept)."""
    if slots <= 1 or len(jobs) <= 1:
        return [job() for job in jobs]
    with ThreadPoolExecutor(max_workers=min(slots, len(jobs))) as pool:
        return list(pool.map(lambda job: job(), jobs))
