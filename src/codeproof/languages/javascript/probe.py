"""TODO-DOC"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from codeproof.languages.base import MAX_PROBES
from codeproof.languages.clike import JS_STRING, balanced_span

SCRIPT = """\
const vm = require('vm');
const CALLS = {calls};
const log = console.log;
let m, err = null;
console.log = () => {{}};
try {{ m = require('./{module}'); }} catch (e) {{ err = '!import ' + (e && e.name); }}
const names = typeof m === 'function' ? {{ [m.name]: m }} : m && typeof m === 'object' ? m : {{}};
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


_JS_LITERAL_WORDS = frozenset({"true", "false", "null", "undefined", "NaN", "Infinity"})


_JS_KEY = re.compile(r"[A-Za-z_$][\w$]*\s*:")


def javascript_calls(tests: Mapping[str, str], names: Collection[str]) -> list[str]:
    """Calls of ``names`` whose arguments are literals (no identifiers) in JS tests."""
    found: list[str] = []
    for source in tests.values():
        for name in names:
            for match in re.finditer(rf"(?<![\w.$]){re.escape(name)}\s*\(", source):
                args = balanced_span(source, match.end() - 1)
                if args is None:
                    continue
                bare = _JS_KEY.sub("", JS_STRING.sub("''", args))  # object keys are not names
                words = set(re.findall(r"[A-Za-z_$][\w$]*", bare))
                if words <= _JS_LITERAL_WORDS:
                    found.append(f"{name}{args}")
    return list(dict.fromkeys(found))[:MAX_PROBES]
