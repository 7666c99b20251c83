"""Day and month constants read off a date class are read off their enums
(languages/java/enums.py)."""

from __future__ import annotations

import pytest

from cleaned import passed_as_written_and_cleaned
from codeproof.languages.java.enums import enum_constants
from codeproof.toolchains.client import ToolchainClient


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = LocalDate.SATURDAY;", "x = DayOfWeek.SATURDAY;"),
        ("x = java.time.LocalDate.SUNDAY;", "x = DayOfWeek.SUNDAY;"),
        ("x = LocalDateTime.MARCH;", "x = Month.MARCH;"),
        ("x = YearMonth.DECEMBER == m;", "x = Month.DECEMBER == m;"),
    ],
)
def test_a_constant_read_off_a_date_class_is_read_off_its_enum(source: str, expected: str) -> None:
    def wrap(line: str) -> str:
        return f"class A {{ void f() {{ {line} }} }}"

    assert enum_constants(wrap(source)) == wrap(expected)


@pytest.mark.parametrize(
    "source",
    [
        "class A { void f() { x = DayOfWeek.SATURDAY; y = Calendar.SATURDAY; } }",
        "class A { void f() { x = LocalDate.MIN; y = LocalDate.EPOCH; } }",
        "class A { void f() { x = Duration.MAY; } }",  # not a date class
        # the file's own class of that name
        "class LocalDate { static int MONDAY = 1; } class A { int x = LocalDate.MONDAY; }",
    ],
)
def test_anything_else_is_left_as_written(source: str) -> None:
    assert enum_constants(source) == source


# The shape of two of the six drafts of java-business-calendar (session 37) and of
# session 18's greedy draft: it does not compile, so no test of the module runs.
CALENDAR = """\
import java.time.LocalDate;
import java.util.HashSet;
import java.util.Set;

public class BusinessCalendar {
    private final Set<LocalDate> holidays;

    public BusinessCalendar(Set<LocalDate> holidays) {
        this.holidays = new HashSet<>(holidays);
    }

    public boolean isBusinessDay(LocalDate day) {
        return !holidays.contains(day)
            && day.getDayOfWeek() != LocalDate.SATURDAY
            && day.getDayOfWeek() != LocalDate.SUNDAY;
    }
}
"""
TEST = """\
import static org.junit.jupiter.api.Assertions.*;

import java.time.LocalDate;
import java.util.Set;
import org.junit.jupiter.api.Test;

public class BusinessCalendarTest {
    @Test
    void weekendsAndHolidaysAreNotBusinessDays() {
        BusinessCalendar calendar = new BusinessCalendar(Set.of(LocalDate.of(2024, 3, 4)));
        assertTrue(calendar.isBusinessDay(LocalDate.of(2024, 3, 1)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 2)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 4)));
    }
}
"""


def test_the_cleaned_draft_compiles_and_passes(java_toolchain: ToolchainClient) -> None:
    written, cleaned = passed_as_written_and_cleaned(
        java_toolchain,
        "java",
        "BusinessCalendar.java",
        CALENDAR,
        {"BusinessCalendarTest.java": TEST},
    )
    assert (written, cleaned) == (0, 1)
