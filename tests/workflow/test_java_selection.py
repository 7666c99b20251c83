"""Java choice details (real javac): uncompiled test methods, constructed receivers."""

from __future__ import annotations

import pytest

from codeproof.agents.repairer import NOT_COMPILED, repair, source_errors_only
from codeproof.choosing.selection import choose
from codeproof.core.types import Module, Spec
from codeproof.languages.java.probe import call_key, java_calls, java_value
from codeproof.llm.fake import FakeModel
from codeproof.toolchains.client import ToolchainClient

TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class SolutionTest {
    @Test
    void one() {
        assertEquals(2, new Solution().f(1));
    }

    @Test
    void wrongType() {
        assertEquals(2, new Solution().f("1"));
    }

    @Test
    void zero() {
        assertEquals(1, new Solution().f(0));
    }
}
"""
MODULE = Module(name="Solution", purpose="p", language="java", public_interface="int f(int x)")


@pytest.mark.docker
def test_a_method_that_compiles_for_no_candidate_is_removed_and_the_rest_run(
    java_toolchain: ToolchainClient,
) -> None:
    candidates = [
        {"Solution.java": f"public class Solution {{\n    public int f(int x) {{ {body} }}\n}}\n"}
        for body in ("return x + 1;", "return 1 + x;", "return x;")
    ]
    choice = choose(
        lambda files, tests: java_toolchain.run_tests(files, tests, 60),
        candidates,
        {"SolutionTest.java": TESTS},
        MODULE,
        run_program=lambda files, args, timeout: java_toolchain.run(files, args, timeout_s=timeout),
    )
    assert [r.passed for r in choice.reports] == [2, 2, 0]
    assert choice.index == 0 and choice.report.green
    assert choice.quarantined[0] == "wrongType (does not compile against 3 of 3)"
    assert "wrongType" not in choice.tests["SolutionTest.java"]
    assert "void zero()" in choice.tests["SolutionTest.java"]


@pytest.mark.docker
def test_a_candidate_that_does_not_compile_removes_no_test(java_toolchain: ToolchainClient) -> None:
    good = "public class Solution {\n    public int f(int x) { return x + 1; }\n}\n"
    broken = "public class Solution {\n    public int f(int x) { return y; }\n}\n"
    tests = {"SolutionTest.java": TESTS.replace('f("1")', "f(1)")}
    choice = choose(
        lambda files, tests: java_toolchain.run_tests(files, tests, 60),
        [{"Solution.java": broken}, {"Solution.java": good}],
        tests,
        MODULE,
    )
    assert choice.index == 1 and choice.quarantined == []
    assert choice.tests == tests


@pytest.mark.docker
def test_a_compile_error_is_reported_file_by_file_and_the_repairer_sees_no_tests(
    java_toolchain: ToolchainClient,
) -> None:
    broken = "public class Solution {\n    public int f(int x) { return y; }\n}\n"
    tests = {"SolutionTest.java": TESTS.replace('f("1")', "f(1)")}
    report = java_toolchain.run_tests({"Solution.java": broken}, tests, 60)
    assert report.total == 0 and report.errors == 1
    [error] = report.diagnostics
    assert (error.file, error.line, error.severity) == ("Solution.java", 2, "error")
    assert "cannot find symbol" in error.message
    assert source_errors_only(report, tests)
    spec = Spec(title="f", summary="f(x) is x + 1.", language="java")
    model = FakeModel(["File: Solution.java\n```java\n" + broken + "```\nSummary: none."])
    repair(model, spec, MODULE, {"Solution.java": broken}, tests, report)
    prompt = model.calls[0].messages[-1].content
    assert NOT_COMPILED in prompt and "class SolutionTest" not in prompt
    assert "cannot find symbol" in prompt  # the compiler's own words
    # a test that does not compile is shown: the error is in it
    wrong = {"SolutionTest.java": TESTS}
    report = java_toolchain.run_tests({"Solution.java": broken.replace("y;", "x;")}, wrong, 60)
    assert [d.file for d in report.diagnostics] == ["SolutionTest.java"]
    assert not source_errors_only(report, wrong)


ACCOUNT_TESTS = """import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class AccountTest {
    @Test
    void deposit() {
        assertEquals(15, new Account(10).deposit(5));
        assertEquals(99, new Account(1).deposit(1));
    }
}
"""


def test_constructed_receivers_are_probe_keys() -> None:
    source = (
        "assertEquals(15, new Account(10).deposit(5)); new Account().deposit(3); "
        "a.deposit(2); new Account(Arrays.asList(1, 2)).deposit(1); new Account(x).deposit(4);"
    )
    assert java_calls({"T.java": source}, {"deposit"}) == [
        "new Account(10).deposit(5)",
        "deposit(3)",
        "deposit(2)",
        "new Account(Arrays.asList(1, 2)).deposit(1)",
        "deposit(4)",  # not literal: a fresh instance, as before
    ]
    assert call_key("new Account(10).deposit(5)") == "new Account(10).deposit(5)"
    assert call_key("new  Account( 10 ) . deposit(5)") == "new Account( 10 ).deposit(5)"
    assert call_key("new Account().deposit(3)") == "deposit(3)"
    assert call_key("new Account(x).deposit(4)") is None
    assert call_key("new Account(10).deposit(5).twice()") is None


def test_java_probes_are_read_as_code() -> None:
    # a scanner took calls from comments and strings, and kept a constructor's arguments
    # only one bracket deep
    source = (
        '// new Account(1).deposit(9)\nString s = "deposit(8)";\n'
        "assertEquals(3, new Account(List.of(Arrays.asList(1))).deposit(2));\n"
    )
    assert java_calls({"T.java": source}, {"deposit"}) == [
        "new Account(List.of(Arrays.asList(1))).deposit(2)"
    ]
    assert java_value("010") == (True, 8) and java_value('"a\\sb"') == (True, "a b")
    assert java_value("Optional.of(List.of(1))") == (True, {"Optional": [1]})


@pytest.mark.docker
def test_a_class_without_a_no_argument_constructor_is_probed(
    java_toolchain: ToolchainClient,
) -> None:
    module = Module(
        name="Account", purpose="p", language="java", public_interface="int deposit(int amount)"
    )
    candidates = [
        {"Account.java": "public class Account {\n    private int balance;\n"
         f"    public Account(int start) {{ balance = start; }}\n"
         f"    public int deposit(int amount) {{ {body} }}\n}}\n"}
        for body in ("return balance += amount;", "balance += amount; return balance;",
                     "return amount;")
    ]  # fmt: skip
    choice = choose(
        lambda files, tests: java_toolchain.run_tests(files, tests, 60),
        candidates,
        {"AccountTest.java": ACCOUNT_TESTS},
        module,
        run_program=lambda files, args, timeout: java_toolchain.run(files, args, timeout_s=timeout),
    )
    assert choice.probes == 2 and choice.output_agreement == [2, 2, 0]
    # the wrong expectation (99) is set aside by what the two agreeing candidates return
    assert choice.index == 0 and choice.report.green
    assert any("new Account(1).deposit(1)" in q for q in choice.quarantined)


@pytest.mark.docker
def test_one_draft_is_no_majority_against_a_test(java_toolchain: ToolchainClient) -> None:
    """java-timesheet-payroll: the one draft's unstated constructor removed every
    designed test calling ``new Timesheet()``, "not compiling against 1 of 1"."""
    draft = (
        "public class Solution {\n    private final int base;\n"
        "    public Solution(int base) { this.base = base; }\n"
        "    public int f(int x) { return x + base; }\n}\n"
    )
    tests = {"SolutionTest.java": TESTS.replace('f("1")', "f(1)")}
    choice = choose(
        lambda files, tests: java_toolchain.run_tests(files, tests, 60),
        [{"Solution.java": draft}],
        tests,
        MODULE,
    )
    assert choice.quarantined == [] and choice.tests == tests
    assert choice.report.total == 0 and not choice.report.green
