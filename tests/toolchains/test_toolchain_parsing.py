"""Pure parts of the toolchains: JUnit XML, diagnostics, messages, input validation."""

from __future__ import annotations

import pytest

from codeproof.core.errors import InputError
from codeproof.languages.java.toolchain import parse_javac_output
from codeproof.languages.javascript.toolchain import load_error, normalize_cases, parse_check_stderr
from codeproof.languages.python.toolchain import pytest_message
from codeproof.toolchains.base import validate_files, validate_sources
from codeproof.toolchains.junit import (
    MESSAGE_LIMIT,
    JUnitCase,
    ReportParseError,
    parse_junit_xml,
    report_from_cases,
    truncate_head,
    truncate_middle,
)
from codeproof.toolchains.names import WORK_DIR

PYTEST_XML = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="4">
<testcase classname="test_calc" name="test_add" time="0.001">
<failure message="assert 6 == 5&#10; +  where 6 = add(2, 3)">test_calc.py:5: in test_add
    assert add(2, 3) == 5
E   assert 6 == 5
E    +  where 6 = add(2, 3)</failure></testcase>
<testcase classname="test_calc" name="test_sub" time="0.001" />
<testcase classname="test_calc" name="test_later" time="0"><skipped type="pytest.skip"
 message="later">test_calc.py:9: later</skipped></testcase>
<testcase classname="" name="test_broken" time="0"><error message="collection failure">
E     File "/workspace/broken.py", line 2
E   SyntaxError: invalid syntax</error></testcase>
</testsuite></testsuites>
"""

JUNIT5_XML = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="JUnit Jupiter" tests="2" skipped="0" failures="1" errors="0">
<properties><property name="java.version" value="17"/></properties>
<testcase name="add()" classname="CalcTest" time="0.01">
<failure message="expected: &lt;5&gt; but was: &lt;6&gt;"
 type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: \
&lt;5&gt; but was: &lt;6&gt;
\tat CalcTest.add(CalcTest.java:4)</failure>
<system-out>unique-id: [engine:junit-jupiter]</system-out></testcase>
<testcase name="sub()" classname="CalcTest" time="0.001"><system-out/></testcase>
</testsuite>
"""

NODE_XML = """<?xml version="1.0" encoding="utf-8"?>
<testsuites>
\t<testcase name="/workspace/broken.test.js" time="0.1" classname="test" failure="test failed">
\t\t<failure type="testCodeFailure" message="test failed">test failed</failure>
\t</testcase>
\t<testcase name="/workspace/empty.test.js" time="0.1" classname="test"/>
\t<testcase name="adds" time="0.002" classname="test">
\t\t<failure type="testCodeFailure" message="6 !== 5">AssertionError: 6 !== 5</failure>
\t</testcase>
\t<testsuite name="grp" time="0.001" tests="2" failures="0" skipped="1">
\t\t<testcase name="inner" time="0.0001" classname="test"/>
\t\t<testcase name="todo" time="0.0001" classname="test"><skipped type="todo" message="todo"/>
\t\t</testcase>
\t</testsuite>
\t<testsuite name="calc.test.js" time="0.2">
\t\t<testcase name="wrapped" time="0.0001" classname="test"/>
\t</testsuite>
\t<!-- tests 5 -->
</testsuites>
"""


def test_pytest_report_gives_exact_outcomes_and_messages() -> None:
    cases = parse_junit_xml(PYTEST_XML)
    assert [(c.qualified_name, c.outcome) for c in cases] == [
        ("test_calc.test_add", "failed"),
        ("test_calc.test_sub", "passed"),
        ("test_calc.test_later", "skipped"),
        ("test_broken", "error"),
    ]
    assert cases[0].message.startswith("assert 6 == 5")
    assert "E   assert 6 == 5" in cases[0].message
    assert cases[2].message == "test_calc.py:9: later"


def test_junit5_report_with_a_testsuite_root() -> None:
    cases = parse_junit_xml(JUNIT5_XML)
    assert [(c.qualified_name, c.outcome) for c in cases] == [
        ("CalcTest.add()", "failed"),
        ("CalcTest.sub()", "passed"),
    ]
    assert cases[0].suites == ("JUnit Jupiter",)
    assert "expected: <5> but was: <6>" in cases[0].message


def test_counts_come_from_the_cases() -> None:
    cases = [c.to_test_case(c.qualified_name) for c in parse_junit_xml(PYTEST_XML)]
    report = report_from_cases(cases, output="out", duration_s=1.5)
    assert (report.total, report.passed, report.failed, report.errors, report.skipped) == (
        4,
        1,
        1,
        1,
        1,
    )
    assert report.output == "out"
    assert not report.green


@pytest.mark.parametrize(
    "document",
    ["<testsuites><testcase name='a'>", "", "<html><body/></html>", "not xml at all"],
)
def test_malformed_or_foreign_documents_are_rejected(document: str) -> None:
    with pytest.raises(ReportParseError):
        parse_junit_xml(document)


def test_error_outranks_failure_in_one_testcase() -> None:
    xml = (
        "<testsuites><testcase name='t'><failure message='f'/>"
        "<error message='teardown broke'/></testcase></testsuites>"
    )
    (case,) = parse_junit_xml(xml)
    assert (case.outcome, case.message) == ("error", "teardown broke")


def test_node_cases_drop_passing_file_tests_and_flag_failing_ones() -> None:
    output = (
        "/workspace/calc.js:2\n  return a +;\n            ^\n\n"
        "SyntaxError: Unexpected token ';'\n    at wrapSafe (node:internal)\n"
    )
    tests = normalize_cases(
        parse_junit_xml(NODE_XML), ["broken.test.js", "empty.test.js", "calc.test.js"], output
    )
    assert [(t.name, t.outcome) for t in tests] == [
        ("broken.test.js", "error"),
        ("adds", "failed"),
        ("grp > inner", "passed"),
        ("grp > todo", "skipped"),
        ("wrapped", "passed"),
    ]
    assert "SyntaxError: Unexpected token ';'" in tests[0].message
    assert "calc.js:2" in tests[0].message


def test_node_names_with_quotes_read_as_the_test_file_writes_them() -> None:
    """Node 20's JUnit reporter escapes a quote in an attribute twice (``&amp;quot;``):
    js-wrap's ``test('R3: wrapText("the quick brown fox", 1) ...')`` was reported as
    ``R3: wrapText(&quot;the quick ...`` and could not be found in its file."""
    xml = (
        '<testsuites><testcase name="R3: f(&amp;quot;a&amp;quot;) &lt;b> &amp; c">'
        '<failure message="Received &amp;quot;Error&amp;quot;">x "q"</failure>'
        "</testcase></testsuites>"
    )
    [test] = normalize_cases(parse_junit_xml(xml), ["f.test.js"], "")
    assert test.name == 'R3: f("a") <b> & c'
    assert 'Received "Error"' in test.message and "&quot;" not in test.message


def test_load_error_finds_the_first_error_line() -> None:
    assert load_error("noise\nfile.js:3\nTypeError: x is not a function\n  at y") == (
        "noise\nfile.js:3\nTypeError: x is not a function"
    )
    assert load_error("all good\n") == ""


def test_long_messages_keep_their_head() -> None:
    case = JUnitCase((), "C", "t", "failed", "expected: <1> but was: <2>\n" + "\tat x\n" * 2000)
    message = case.to_test_case("C.t").message
    assert len(message) <= MESSAGE_LIMIT
    assert message.startswith("expected: <1> but was: <2>")


def test_truncation_helpers() -> None:
    text = "a" * 100 + "b" * 100
    middle = truncate_middle(text, 80)
    assert len(middle) <= 80 and middle.startswith("a") and middle.endswith("b")
    head = truncate_head(text, 80)
    assert len(head) <= 80 and head.startswith("aaa") and "more characters" in head
    assert truncate_middle("short", 80) == truncate_head("short", 80) == "short"


def test_pytest_message_puts_the_explanation_first() -> None:
    text = "test_a.py:3: in test_a\n    assert f() == 1\nE   assert 2 == 1"
    assert pytest_message(text).startswith("E   assert 2 == 1\n\n")
    assert pytest_message("no marker") == "no marker"


def test_node_check_stderr_gives_file_line_column() -> None:
    stderr = (
        "/workspace/calc.js:3\n  return x +;\n            ^\n\n"
        "SyntaxError: Unexpected token ';'\n    at wrapSafe (node:internal/modules)\n"
    )
    diagnostic = parse_check_stderr("calc.js", stderr)
    assert (diagnostic.file, diagnostic.line, diagnostic.column) == ("calc.js", 3, 13)
    assert diagnostic.message == "SyntaxError: Unexpected token ';'"


def test_javac_output_gives_errors_and_warnings() -> None:
    output = (
        "Calc.java:2: error: ';' expected\n"
        "    static int add(int a, int b) { return a + b }\n"
        "                                               ^\n"
        "Util.java:7: warning: [rawtypes] found raw type: List\n"
        "        List xs = null;\n"
        "        ^\n"
        "1 error\n1 warning\n"
    )
    first, second = parse_javac_output(output)
    assert (first.file, first.line, first.column, first.severity) == ("Calc.java", 2, 48, "error")
    assert first.message == "';' expected"
    assert (second.file, second.line, second.severity) == ("Util.java", 7, "warning")


@pytest.mark.parametrize(
    "path",
    ["", "/etc/passwd", "../up.py", "a/../../up.py", ".", "a\\b.py", f"{WORK_DIR}/x.xml"],
)
def test_invalid_paths_are_rejected(path: str) -> None:
    with pytest.raises(InputError):
        validate_files({path: "x"})


def test_paths_are_normalized() -> None:
    assert validate_files({"./src//calc.py": "x", "calc.py": "y"}) == {
        "src/calc.py": "x",
        "calc.py": "y",
    }


def test_sources_need_tests_and_distinct_paths() -> None:
    with pytest.raises(InputError, match="no test file"):
        validate_sources({"a.py": ""}, {})
    with pytest.raises(InputError, match="both as a file and as a test"):
        validate_sources({"test_a.py": ""}, {"test_a.py": ""})
    assert validate_sources({"a.py": "1"}, {"test_a.py": "2"}) == (
        {"a.py": "1"},
        {"test_a.py": "2"},
    )
