"""Set aside single assertions that contradict what the agreeing candidates return.

A small model's test function often holds a dozen assertions of which one expects a wrong
value (``add(-100, -100) == 0``); the whole test then fails for every correct candidate
and is too coarse to quarantine. When most of the probed candidates (at least two) return
the same value for a call, and an assertion ``call == literal`` expects another value, the
assertion is replaced by a note (a test function left without any check is removed); so is
an assertion expecting a value where they agree on raising an error the request states.
The user's own examples are never edited.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence

from codeproof.choosing.probing import MIN_SHARE, Outputs
from codeproof.core.proof import DisputedCheck
from codeproof.languages import registry

logger = logging.getLogger(__name__)

AssertEditor = Callable[
    [dict[str, str], Mapping[str, str], Collection[str]], tuple[dict[str, str], list[DisputedCheck]]
]


def consensus(
    outputs: Sequence[Outputs],
    index: int,
    calls: Sequence[str],
    sources: Sequence[str] | None = None,
    errors: Collection[str] = (),
) -> dict[str, str]:
    """Call -> the value candidate ``index`` returns, where most probed candidates agree.

    Only values that at least two *different* candidates (by ``sources``, one text per
    candidate; a repeated draft is no second opinion) and more than
    :data:`~codeproof.choosing.probing.MIN_SHARE` of the probed ones return; a raised
    exception (``!ValueError``) only when it is one of the ``errors`` the user's words
    state (parse_temp: the request says anything else raises ValueError, every draft
    raises it for ``parse_temp('70')``, and a designed test expecting ``21.1`` kept correct
    code from being reported passed). A crash nobody stated is no reading of the task.
    """
    if not 0 <= index < len(outputs) or outputs[index] is None:
        return {}
    texts = list(sources) if sources is not None else [str(i) for i in range(len(outputs))]
    probed = [(o, t) for o, t in zip(outputs, texts, strict=True) if o is not None]
    mine = outputs[index] or []
    agreed = {}
    for k, call in enumerate(calls):
        same = [t for o, t in probed if o[k] == mine[k]]
        distinct = len(set(same))
        stated = not mine[k].startswith("!") or mine[k][1:] in errors
        if distinct >= 2 and len(same) > MIN_SHARE * len(probed) and stated:
            agreed[call] = mine[k]
    return agreed


"""Languages whose single assertions can be set aside (the others: whole tests only)."""


def edit_asserts(
    language: str, tests: dict[str, str], agreed: Mapping[str, str], protected: Collection[str]
) -> tuple[dict[str, str], list[DisputedCheck]]:
    """The test files without the assertions that contradict ``agreed`` (``protected``
    paths and languages that cannot edit assertions are left as they are).

    Returns:
        The test files, and the checks set aside (their notes ``path::note``).
    """
    language_found = registry.find(language)
    edit = language_found.choosing.edit_asserts if language_found is not None else None
    if language_found is None or edit is None:
        return tests, []
    layout = language_found.layout
    edited, notes = dict(tests), []
    for path, source in tests.items():
        if path in protected or not layout.is_test_path(path):
            continue
        new, set_aside = edit(source, agreed)
        if set_aside:
            edited[path] = new
            notes += [d.model_copy(update={"note": f"{path}::{d.note}"}) for d in set_aside]
    return edited, notes
