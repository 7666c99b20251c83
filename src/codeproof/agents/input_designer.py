"""The input designer: edge-case inputs that tell candidate implementations apart.

The test designer's calls are few and mostly the specification's own examples; on them
a correct and a subtly wrong candidate often return the same values, so comparing
candidates by their outputs (:mod:`codeproof.choosing.probing`) cannot separate them.
This role proposes further calls of the public interface, without expected values (a
small model gets expected values wrong; the candidates' agreement decides instead). Like
the test designer it sees the specification only, never the code.
"""

from __future__ import annotations

import logging
import re

from codeproof.agents.prompting import conversation, render_module, render_spec
from codeproof.core.signatures import declaring_part
from codeproof.core.types import Module, Spec
from codeproof.languages.fences import code_blocks
from codeproof.languages.registry import layout_for
from codeproof.llm.base import ChatModel, ChatSettings

logger = logging.getLogger(__name__)

INPUTS_SYSTEM = """You are a tester. You list inputs for {language} code you cannot see; \
you never write the code itself."""

INPUTS_USER = """{spec}

{module}

List {n} NEW calls of `{name}` with literal arguments that are not among the examples \
above. Pick inputs on which a careless implementation goes wrong:
- boundaries and off-by-one cases; empty, single-element and repeated values; zero and \
negative numbers;
- every special case or rule the description mentions, and the cases just beside it.
Use only inputs the description allows, of the types the signature takes. Write only the \
calls: no function definition, no expected values, no print, no comments.

Reply with one ```{tag} block, one call per line, like `{name}(...)`."""

_COMMENT = re.compile(r"^\s*(#|//|/\*|\*)")

MAX_LINE = 200
"""Longer lines are dropped: a small model's runaway literal (``f(10000000000...)``,
``"aaaa..."``) is cut by the token limit or tests nothing a shorter one does not."""

TOKENS_PER_CALL = 28
"""Completion tokens allowed per asked-for call. A call line is 8-20 tokens (``new
Solution().f(Arrays.asList(1, 2, 3))`` is 16); past ``n`` calls a small model goes on
listing variations and ends in a runaway literal (the README demo request: 512 tokens,
the whole budget, 31 s of a 136 s run), which this budget cuts while leaving room for
``n`` long lines."""


def propose_inputs(
    model: ChatModel, spec: Spec, module: Module, *, n: int = 10, max_tokens: int | None = None
) -> list[str]:
    """The lines of the reply that may be calls of ``module``'s interface (at most ``2n``),
    from a reply of at most ``max_tokens`` (default: :data:`TOKENS_PER_CALL` per call).

    The lines are not checked here: the prober of the module's language keeps those
    that call the interface with literal arguments
    (:func:`codeproof.choosing.selection.choose`), so an import or a stray line costs
    nothing. Comment lines, blank lines and lines over :data:`MAX_LINE` characters are
    dropped.
    """
    if n <= 0:
        return []
    layout = layout_for(module.language)
    names = re.findall(r"([A-Za-z_$][\w$]*)\s*\(", declaring_part(module.public_interface))
    user = INPUTS_USER.format(
        spec=render_spec(spec),
        module=render_module(module),
        n=n,
        tag=layout.fence_tag,
        name=names[0] if names else module.name,
    )
    messages = conversation(INPUTS_SYSTEM.format(language=module.language), user)
    budget = max_tokens or TOKENS_PER_CALL * n + 16  # + the fence lines
    reply = model.chat(messages, ChatSettings(temperature=0.0, max_tokens=budget)).text
    lines = [
        line.strip()
        for block in code_blocks(reply, layout)
        for line in block.code.splitlines()
        if line.strip() and not _COMMENT.match(line) and len(line.strip()) <= MAX_LINE
    ]
    unique = list(dict.fromkeys(lines))[: 2 * n]
    logger.info("propose_inputs: %d line(s) for %s", len(unique), module.name)
    return unique
