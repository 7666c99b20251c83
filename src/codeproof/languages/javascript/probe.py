"""JavaScript's probes: calls of the interface with constant arguments found in the
tests (read with the syntax facade), and the script that runs them on a candidate."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from codeproof.languages.base import MAX_PROBES
from codeproof.languages.syntax import parse

SCRIPT = """\
const vm = require('vm');
const CALLS = {calls};
const log = console.log;
let m, err = null;
console.log = () => {{}};
try {{ m = require('./{module}'); }} catch (e) {{ err = '!import ' + (e && e.name); }}
// a module exporting a function or class: its name, and the names it also carries
const names = typeof m === 'function' ? Object.assign({{ [m.name]: m }}, m)
  : m && typeof m === 'object' ? m : {{}};
globalThis.__codeproofNames = names;
const params = '{{' + Object.keys(names).join(', ') + '}}';
for (const call of CALLS) {{
  let out;
  if (err) out = err;
  else {{
    try {{
      // in this realm (arrays stay Arrays), cut after {limit_ms} ms like the other probes
      const code = '((' + params + ') => (' + call + '))(globalThis.__codeproofNames)';
      const v = vm.runInThisContext(code, {{ timeout: {limit_ms} }});
      out = v === undefined ? 'undefined' : JSON.stringify(v);
    }} catch (e) {{
      out = e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? '!TimeoutError' : '!' + (e && e.name);
    }}
  }}
  log({mark!r} + JSON.stringify(String(out).slice(0, 400)));
}}
"""

BROKEN = frozenset({"ReferenceError", "SyntaxError"})
"""Errors of code that is broken whatever the input: a name never defined, code that
does not parse."""


def javascript_calls(tests: Mapping[str, str], names: Collection[str]) -> list[str]:
    """Calls of ``names`` whose arguments are constants (no variables) in JS tests."""
    found = [
        f"{call.name}{call.arguments.text}"
        for source in tests.values()
        for call in parse("javascript", source).calls(names)
        if call.receiver is None and all(arg.constant() for arg in call.args)
    ]
    return list(dict.fromkeys(found))[:MAX_PROBES]
