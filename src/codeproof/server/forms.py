"""The web page's answer forms turned into answers (then checked like any API answer).

Field names: clarify ``answer`` (one per question) or ``proceed``; modules ``keep`` (row
numbers), ``name_N``, ``purpose_N``, ``interface_N``, ``depends_N`` and ``new_*`` for an
added module; escalation ``action``, ``hint`` and ``file:PATH`` (edited code); the
proof's question ``value`` (a choice) or ``typed`` (an expected value typed as a literal,
which wins when given).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.datastructures import FormData

from codeproof.core.errors import InputError
from codeproof.languages import registry


def _text(form: FormData, key: str) -> str:
    value = form.get(key)
    return value.strip() if isinstance(value, str) else ""


def _list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def clarify(form: FormData, question: dict[str, Any]) -> dict[str, Any]:
    if form.get("proceed"):
        return {"proceed": True}
    answers = [a.strip() for a in form.getlist("answer") if isinstance(a, str)]
    return {"answers": [a or "(no preference)" for a in answers] if any(answers) else []}


def modules(form: FormData, question: dict[str, Any]) -> dict[str, Any]:
    proposed: list[dict[str, Any]] = question.get("modules", [])
    kept = {int(k) for k in form.getlist("keep") if isinstance(k, str) and k.isdigit()}
    renames: dict[str, str] = {}
    chosen: list[dict[str, Any]] = []
    for i, module in enumerate(proposed):
        if i not in kept:
            continue
        name = _text(form, f"name_{i}") or module["name"]
        renames[module["name"]] = name
        chosen.append(
            {
                **module,
                "name": name,
                "purpose": _text(form, f"purpose_{i}") or module.get("purpose", ""),
                "public_interface": _text(form, f"interface_{i}")
                or module.get("public_interface", ""),
                "depends_on": _list(_text(form, f"depends_{i}")),
            }
        )
    for module in chosen:
        module["depends_on"] = [renames.get(d, d) for d in module["depends_on"]]
    new_name = _text(form, "new_name")
    if new_name:
        default = registry.default().name
        language = proposed[0].get("language", default) if proposed else default
        chosen.append(
            {
                "name": new_name,
                "purpose": _text(form, "new_purpose"),
                "language": language,
                "public_interface": _text(form, "new_interface") or new_name,
                "depends_on": _list(_text(form, "new_depends")),
            }
        )
    return {"modules": chosen}


def escalation(form: FormData, question: dict[str, Any]) -> dict[str, Any]:
    action = _text(form, "action")
    answer: dict[str, Any] = {"action": action}
    if action != "react":
        return answer
    hint = _text(form, "hint")
    if hint:
        answer["hint"] = hint
    files: dict[str, str] = question.get("files", {})
    edited = {}
    for path, original in files.items():
        value = form.get(f"file:{path}")
        if isinstance(value, str) and value.replace("\r\n", "\n") != original:
            edited[path] = value.replace("\r\n", "\n")
    if edited:
        answer["files"] = edited
    return answer


def question(form: FormData, question: dict[str, Any]) -> dict[str, Any]:
    return {"value": _text(form, "typed") or _text(form, "value")}


FORMS: dict[str, Callable[[FormData, dict[str, Any]], dict[str, Any]]] = {
    "clarify": clarify,
    "modules": modules,
    "escalation": escalation,
    "question": question,
}


def answer_from(form: FormData, question: dict[str, Any]) -> dict[str, Any]:
    """The answer a submitted form gives to ``question``.

    Raises:
        InputError: The question kind has no form.
    """
    make = FORMS.get(str(question.get("kind")))
    if make is None:
        raise InputError(f"no form for a {question.get('kind')!r} question")
    return make(form, question)
