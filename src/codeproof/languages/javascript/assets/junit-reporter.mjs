// JUnit XML reporter for `node --test`, part of codeproof.
//
// Node 21.3+ and 20.11+ ship a built-in `junit` reporter, which is used when present.
// Older runtimes (Debian bookworm's Node 18) get this equivalent: every test without
// subtests becomes a <testcase>, every test with subtests (and every describe block)
// a <testsuite> holding its children, in the same layout as the built-in reporter.
import * as reporters from 'node:test/reporters';

const ESCAPES = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };
// Characters XML 1.0 forbids even when escaped.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function esc(value) {
  return String(value ?? '').replace(FORBIDDEN, '').replace(/[<>&"']/g, (c) => ESCAPES[c]);
}

function failureOf(error) {
  const cause = error && error.cause !== undefined ? error.cause : error;
  if (cause === null || cause === undefined) {
    return { type: 'Error', message: 'test failed', text: '' };
  }
  if (typeof cause !== 'object') {
    return { type: (error && error.failureType) || 'Error', message: String(cause), text: '' };
  }
  const type = cause.name || (error && error.failureType) || 'Error';
  const message = cause.message !== undefined ? String(cause.message) : String(cause);
  return { type, message, text: cause.stack ? String(cause.stack) : message };
}

function seconds(data) {
  const ms = data.details && data.details.duration_ms;
  return typeof ms === 'number' ? (ms / 1000).toFixed(6) : '0';
}

function render(node, indent) {
  const pad = '  '.repeat(indent);
  if (node.children.length > 0) {
    const inner = node.children.map((child) => render(child, indent + 1)).join('\n');
    return `${pad}<testsuite name="${esc(node.name)}" time="${node.time}">\n${inner}\n${pad}</testsuite>`;
  }
  const open = `${pad}<testcase name="${esc(node.name)}" time="${node.time}" classname="test"`;
  if (node.skipped) {
    return `${open}>\n${pad}  <skipped message="${esc(node.skipped)}"/>\n${pad}</testcase>`;
  }
  if (node.failure) {
    const f = node.failure;
    return (
      `${open}>\n${pad}  <failure type="${esc(f.type)}" message="${esc(f.message)}">` +
      `${esc(f.text)}</failure>\n${pad}</testcase>`
    );
  }
  return `${open}/>`;
}

function count(nodes, predicate) {
  let n = 0;
  for (const node of nodes) {
    n += node.children.length > 0 ? count(node.children, predicate) : predicate(node) ? 1 : 0;
  }
  return n;
}

async function* junitReporter(source) {
  // pending[n] holds the finished tests at nesting n whose parent has not finished yet;
  // a parent always finishes after its subtests.
  const pending = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') {
      continue;
    }
    const data = event.data;
    const level = data.nesting || 0;
    const children = pending[level + 1] || [];
    pending[level + 1] = [];
    const node = { name: data.name, time: seconds(data), children, skipped: '', failure: null };
    if (data.skip !== undefined && data.skip !== false) {
      node.skipped = data.skip === true ? 'skipped' : String(data.skip);
    } else if (data.todo !== undefined && data.todo !== false) {
      node.skipped = data.todo === true ? 'todo' : `todo: ${data.todo}`;
    } else if (event.type === 'test:fail' && children.length === 0) {
      node.failure = failureOf(data.details && data.details.error);
    }
    (pending[level] = pending[level] || []).push(node);
  }
  const roots = pending[0] || [];
  const tests = count(roots, () => true);
  const failures = count(roots, (n) => n.failure !== null);
  const skipped = count(roots, (n) => n.skipped !== '');
  const body = roots.map((node) => render(node, 1)).join('\n');
  yield '<?xml version="1.0" encoding="utf-8"?>\n';
  yield `<testsuites tests="${tests}" failures="${failures}" skipped="${skipped}">\n`;
  yield body ? `${body}\n</testsuites>\n` : '</testsuites>\n';
}

export { junitReporter };
export default reporters.junit ?? junitReporter;
