"""The planner: modules of a spec (in dependency order) and the steps of one module."""

from __future__ import annotations

import keyword
import logging
import re
from collections.abc import Callable, Collection, Sequence

from codeproof.agents.prompting import conversation, join_sections, render_module, render_spec
from codeproof.core.errors import InputError, StructuredOutputError
from codeproof.core.types import Module, ModuleList, ModulePlan, Spec
from codeproof.languages.layout import Layout
from codeproof.languages.registry import layout_for, normalize_language
from codeproof.llm.base import ChatModel

logger = logging.getLogger(__name__)

MAX_STEPS = 8

MODULES_SYSTEM = """You split a specification into code modules.
Use as FEW modules as possible: a small task is exactly ONE module.
For each module give:
- "name": a short snake_case identifier, e.g. "slugify" (not a standard library name),
- "purpose": one sentence,
- "language": the language of the specification,
- "depends_on": names of the other modules it uses (usually empty),
- "public_interface": the exact signatures other code calls.
List a module after the modules it depends on."""

PLAN_SYSTEM = """You plan how to implement one module.
Write 2 to 6 short steps, one sentence each, in the order a programmer does them.
Mention the edge cases the specification names."""

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def extract_modules(
    model: ChatModel, spec: Spec, *, context: Callable[[], str] | None = None
) -> list[Module]:
    """Propose the modules of ``spec`` in dependency order.

    ``context`` gives retrieved reference material (asked only when the model is).

    A spec with at most one interface is one module, without asking the model: small
    models split one function into several modules (seen: ``wordCount`` became
    ``splitWords``, ``countWords`` and ``wordCount``, each with tests of the others). For the
    same reason a proposal with more modules than the spec has interfaces becomes one module.
    Otherwise the model's proposal is repaired rather than rejected: names are made
    identifier-safe and unique, unknown dependencies and cycle-closing dependencies are
    dropped. When the model gives nothing usable, the spec becomes one module.
    """
    if len(spec.interfaces) <= 1:
        return [single_module(spec)]
    extra = context() if context is not None else ""
    user = join_sections(render_spec(spec), f"Language: {spec.language}", extra)
    try:
        proposal = model.generate(conversation(MODULES_SYSTEM, user), ModuleList).modules
    except StructuredOutputError as exc:
        logger.warning("extract_modules: no valid reply (%s); using one module", exc)
        proposal = []
    if len(proposal) > len(spec.interfaces):
        logger.info(
            "extract_modules: %d modules for %d interfaces; using one module",
            len(proposal),
            len(spec.interfaces),
        )
        proposal = []
    if not proposal:
        proposal = [single_module(spec)]
    return order_modules(proposal, language=spec.language, strict=False)


def single_module(spec: Spec) -> Module:
    """The whole spec as one module.

    Named after the class its interfaces declare, else its first function, else its title.
    """
    text = "\n".join(spec.interfaces)
    declared = re.search(r"\b(?:class|interface)\s+([A-Za-z_]\w*)", text)
    function = re.search(r"(\w+)\s*\(", text)
    first = declared or function
    name = _safe_name(first.group(1) if first else spec.title or "solution")
    return Module(
        name=name,
        purpose=spec.summary or spec.title,
        language=spec.language,
        public_interface=text or name,
    )


def _safe_name(raw: str) -> str:
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", raw.strip())
    name = re.sub(r"[^0-9A-Za-z]+", "_", snake).strip("_").lower() or "module"
    if name[0].isdigit():
        name = f"m_{name}"
    return f"{name}_mod" if keyword.iskeyword(name) else name


def order_modules(
    modules: Sequence[Module],
    *,
    language: str | None = None,
    strict: bool = True,
    stated: Collection[str] = (),
) -> list[Module]:
    """Validate modules and return them in dependency order (stable otherwise).

    Args:
        modules: The modules, e.g. as the user edited them.
        language: Force this language on every module (the spec's).
        strict: Raise on any defect (user input). Otherwise repair what the model got
            wrong: rename invalid, reserved or duplicate names, drop unknown or cyclic
            dependencies.
        stated: Names the user's request states: kept even where they shadow a standard
            module (the user asked for that file).

    Raises:
        InputError: ``strict`` and a name is invalid, reserved or duplicated, a
            dependency is unknown, or the dependencies form a cycle; or no modules.
        UnknownLanguageError: A module's language has no layout.
    """
    if not modules:
        raise InputError("no modules to build", hint="add at least one module")
    fixed = _fix_names(modules, language=language, strict=strict, stated=frozenset(stated))
    fixed = _fix_dependencies(fixed, strict=strict)
    return _topological(fixed, strict=strict)


def _fix_names(
    modules: Sequence[Module], *, language: str | None, strict: bool, stated: frozenset[str]
) -> list[Module]:
    taken: set[str] = set()
    renames: dict[str, str] = {}
    out = []
    for module in modules:
        lang = normalize_language(language or module.language)
        layout = layout_for(lang)
        name = module.name.strip()
        problem = _name_problem(name, taken, layout, stated=name in stated)
        if problem and strict:
            raise InputError(
                f"module name {name!r} {problem}",
                hint="use a unique snake_case identifier that is not a standard module name",
            )
        if problem:
            name = _unique_name(_safe_name(name), taken, layout)
            logger.info("module name %r %s; renamed to %r", module.name, problem, name)
        renames.setdefault(module.name.strip(), name)
        taken.add(name)
        out.append(module.model_copy(update={"name": name, "language": lang}))
    return [_renamed_deps(m, renames) for m in out]


def _renamed_deps(module: Module, renames: dict[str, str]) -> Module:
    deps = [renames.get(d.strip(), d.strip()) for d in module.depends_on]
    return module.model_copy(update={"depends_on": deps})


def _name_problem(name: str, taken: set[str], layout: Layout, *, stated: bool) -> str | None:
    if not _IDENT.fullmatch(name) or keyword.iskeyword(name):
        return "is not an identifier"
    if _clashes(name, layout) and not stated:
        return "shadows a standard module or looks like a test file"
    if name in taken:
        return "is used twice"
    return None


def _clashes(name: str, layout: Layout) -> bool:
    return name.lower() in layout.reserved or layout.is_test_path(layout.source_path(name))


def _unique_name(base: str, taken: set[str], layout: Layout) -> str:
    name = f"{base}_mod" if _clashes(base, layout) else base
    if _clashes(name, layout):
        name = f"mod_{base}"
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    return candidate


def _fix_dependencies(modules: list[Module], *, strict: bool) -> list[Module]:
    names = {m.name for m in modules}
    out = []
    for module in modules:
        deps: list[str] = []
        for dep in module.depends_on:
            if dep in names and dep != module.name:
                if dep not in deps:
                    deps.append(dep)
                continue
            if strict:
                what = "itself" if dep == module.name else f"unknown module {dep!r}"
                raise InputError(
                    f"module {module.name!r} depends on {what}",
                    hint="fix depends_on to name other modules of the list",
                )
            logger.info("module %r: dropped dependency %r", module.name, dep)
        out.append(module.model_copy(update={"depends_on": deps}))
    return out


def _topological(modules: list[Module], *, strict: bool) -> list[Module]:
    """Kahn's algorithm, stable by input order; a cycle is an error or is broken."""
    remaining = list(modules)
    done: list[Module] = []
    placed: set[str] = set()
    while remaining:
        ready = next((m for m in remaining if set(m.depends_on) <= placed), None)
        if ready is None:
            if strict:
                cycle = ", ".join(m.name for m in remaining)
                raise InputError(
                    f"module dependencies form a cycle among: {cycle}",
                    hint="remove one dependency of the cycle",
                )
            head = remaining[0]
            kept = [d for d in head.depends_on if d in placed]
            logger.info("module %r: dropped cyclic dependencies", head.name)
            ready = head.model_copy(update={"depends_on": kept})
            remaining[0] = ready
        remaining.remove(ready)
        done.append(ready)
        placed.add(ready.name)
    return done


def plan_module(model: ChatModel, spec: Spec, module: Module, *, context: str = "") -> ModulePlan:
    """The implementation steps of ``module`` (a default plan when the model fails).

    ``context`` is retrieved reference material (a fenced section labelled as data).
    """
    user = join_sections(render_spec(spec), render_module(module), context)
    try:
        plan = model.generate(conversation(PLAN_SYSTEM, user), ModulePlan)
    except StructuredOutputError as exc:
        logger.warning("plan_module: no valid reply (%s); using a default plan", exc)
        plan = ModulePlan(steps=[])
    steps = [s.strip() for s in plan.steps if s.strip()][:MAX_STEPS]
    if not steps:
        steps = [
            f"Implement {module.public_interface.strip() or module.name} as specified.",
            "Handle the edge cases named in the specification.",
        ]
    return ModulePlan(steps=steps)
