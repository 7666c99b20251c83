"""Reading JUnit XML reports (pytest, node:test, the JUnit 5 console launcher).

Counts of a test run come only from these machine-readable reports, never from the
human-readable output of the test framework: a program that prints "passed" proves
nothing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from codeproof.core.types import Outcome, TestCase, TestReport

MESSAGE_LIMIT = 1_500
"""Characters kept of one test's failure message (its head: the assertion comes first,
the least useful stack frames last)."""

_OUTCOME_OF_CHILD: dict[str, Outcome] = {
    "error": "error",
    "failure": "failed",
    "skipped": "skipped",
}
_PRECEDENCE: dict[Outcome, int] = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}


class ReportParseError(ValueError):
    """A report is not well-formed JUnit XML (e.g. cut short when a run was killed)."""


@dataclass(frozen=True)
class JUnitCase:
    """One ``<testcase>`` element.

    Attributes:
        suites: Names of the enclosing ``<testsuite>`` elements, outermost first.
        classname: The ``classname`` attribute (may be empty).
        name: The ``name`` attribute.
        outcome: Derived from the ``failure``/``error``/``skipped`` children.
        message: Failure, error or skip message (attribute and text), in full.
    """

    suites: tuple[str, ...]
    classname: str
    name: str
    outcome: Outcome
    message: str

    @property
    def qualified_name(self) -> str:
        """``classname.name`` (pytest, JUnit), or ``name`` without a class."""
        return f"{self.classname}.{self.name}" if self.classname else self.name

    def to_test_case(self, name: str, message: str | None = None) -> TestCase:
        """A :class:`TestCase` called ``name``; the message is cut to :data:`MESSAGE_LIMIT`."""
        text = self.message if message is None else message
        return TestCase(name=name, outcome=self.outcome, message=truncate_head(text, MESSAGE_LIMIT))


def truncate_middle(text: str, limit: int) -> str:
    """Keep the head and the tail of ``text`` so that it fits in ``limit`` characters."""
    if len(text) <= limit:
        return text
    marker = f"\n... [{len(text) - limit} characters truncated] ...\n"
    keep = max(limit - len(marker), 0)
    head = keep * 3 // 4
    return text[:head] + marker + text[len(text) - (keep - head) :]


def truncate_head(text: str, limit: int) -> str:
    """Keep the beginning of ``text`` so that it fits in ``limit`` characters."""
    if len(text) <= limit:
        return text
    marker = f"\n... [{len(text) - limit} more characters]"
    return text[: max(limit - len(marker), 0)] + marker


def _message(element: ET.Element) -> str:
    attribute = (element.get("message") or "").strip()
    text = (element.text or "").strip()
    if attribute and text and attribute not in text:
        combined = f"{attribute}\n{text}"
    else:
        combined = text or attribute
    return combined


def _case(element: ET.Element, suites: tuple[str, ...]) -> JUnitCase:
    outcome: Outcome = "passed"
    message = ""
    for child in element:
        child_outcome = _OUTCOME_OF_CHILD.get(child.tag)
        if child_outcome is not None and _PRECEDENCE[child_outcome] > _PRECEDENCE[outcome]:
            outcome = child_outcome
            message = _message(child)
    return JUnitCase(
        suites=suites,
        classname=element.get("classname") or "",
        name=element.get("name") or "",
        outcome=outcome,
        message=message,
    )


def _walk(element: ET.Element, suites: tuple[str, ...]) -> Iterator[JUnitCase]:
    for child in element:
        if child.tag == "testcase":
            yield _case(child, suites)
        elif child.tag == "testsuite":
            yield from _walk(child, (*suites, child.get("name") or ""))
        elif child.tag == "testsuites":
            yield from _walk(child, suites)


def parse_junit_xml(document: str | bytes) -> list[JUnitCase]:
    """Every test case of a JUnit XML document, in document order.

    Both layouts are accepted: a ``<testsuites>`` root (pytest, node:test) and a single
    ``<testsuite>`` root (JUnit 5 console launcher). Nested suites are followed.

    Raises:
        ReportParseError: The document is not well-formed XML or has another root.
    """
    try:
        root = ET.fromstring(document)
    except ET.ParseError as exc:
        raise ReportParseError(f"malformed JUnit XML: {exc}") from exc
    if root.tag == "testsuites":
        return list(_walk(root, ()))
    if root.tag == "testsuite":
        return list(_walk(root, (root.get("name") or "",)))
    raise ReportParseError(f"not a JUnit XML report (root element <{root.tag}>)")


def report_from_cases(cases: Iterable[TestCase], **fields: object) -> TestReport:
    """A :class:`TestReport` whose counts are computed from ``cases``.

    Args:
        cases: The test cases.
        **fields: Other :class:`TestReport` fields (output, duration_s, message...).
    """
    tests = list(cases)
    outcomes = [case.outcome for case in tests]
    return TestReport.model_validate(
        {
            **fields,
            "total": len(tests),
            "passed": outcomes.count("passed"),
            "failed": outcomes.count("failed"),
            "errors": outcomes.count("error"),
            "skipped": outcomes.count("skipped"),
            "tests": tests,
        }
    )
