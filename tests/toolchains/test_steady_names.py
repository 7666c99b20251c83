"""Fresh workspace names are random while the code runs and steady in the output."""

from __future__ import annotations

from codeproof.toolchains.names import fresh_name, steady_names


def test_a_fresh_name_is_written_without_its_random_part() -> None:
    report, runner = fresh_name("pytest", ".xml"), fresh_name("pytestrun", ".py")
    assert report != fresh_name("pytest", ".xml")  # unguessable while the code runs
    output = f"--- generated xml file: /workspace/{report} ---\n  File {runner}, line 3"
    steady = steady_names(output, [report, runner])
    assert steady == (
        "--- generated xml file: /workspace/.codeproof/pytest.xml ---\n"
        "  File .codeproof/pytestrun.py, line 3"
    )
    assert steady_names(output, [fresh_name("pytest", ".xml"), runner]) != steady
    reports = fresh_name("junit-reports")  # a directory: no suffix
    assert steady_names(f"see {reports}/x.xml", [reports]) == "see .codeproof/junit-reports/x.xml"
    junit = f"{reports}/TEST-junit-jupiter.xml"  # Java's report: a file in a fresh directory
    assert steady_names(f"{reports} and {junit}", [junit]) == (
        ".codeproof/junit-reports and .codeproof/junit-reports/TEST-junit-jupiter.xml"
    )


def test_other_names_are_left_as_they_are() -> None:
    output = "roman.py:3: KeyError: 'x'\n.codeproof/my-module.py"
    assert steady_names(output, [".codeproof/my-module.py", "roman.py"]) == output
