// Acceptance tests of java-business-calendar, written from request.md alone.
import static org.junit.jupiter.api.Assertions.*;

import java.time.LocalDate;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BusinessCalendarAcceptanceTest {
    private static final LocalDate FRI = LocalDate.of(2024, 3, 1);
    private static final LocalDate SAT = LocalDate.of(2024, 3, 2);
    private static final LocalDate SUN = LocalDate.of(2024, 3, 3);
    private static final LocalDate MON = LocalDate.of(2024, 3, 4);
    private static final LocalDate TUE = LocalDate.of(2024, 3, 5);

    private static BusinessCalendar plain() {
        return new BusinessCalendar(new HashSet<>());
    }

    @Test
    void weekdaysAreBusinessDaysAndWeekendsAreNot() {
        BusinessCalendar calendar = plain();
        assertTrue(calendar.isBusinessDay(FRI));
        assertTrue(calendar.isBusinessDay(MON));
        assertFalse(calendar.isBusinessDay(SAT));
        assertFalse(calendar.isBusinessDay(SUN));
    }

    @Test
    void holidaysAreNotBusinessDays() {
        BusinessCalendar calendar = new BusinessCalendar(new HashSet<>(Set.of(MON)));
        assertFalse(calendar.isBusinessDay(MON));
        assertTrue(calendar.isBusinessDay(TUE));
    }

    @Test
    void fridayPlusOneIsMonday() {
        assertEquals(MON, plain().addBusinessDays(FRI, 1));
    }

    @Test
    void aHolidayMovesTheDueDate() {
        BusinessCalendar calendar = new BusinessCalendar(new HashSet<>(Set.of(MON)));
        assertEquals(TUE, calendar.addBusinessDays(FRI, 1));
    }

    @Test
    void addingZeroReturnsTheStartUnchanged() {
        assertEquals(FRI, plain().addBusinessDays(FRI, 0));
        assertEquals(SAT, plain().addBusinessDays(SAT, 0));
    }

    @Test
    void aWeekendStartDoesNotCount() {
        assertEquals(MON, plain().addBusinessDays(SAT, 1));
        assertEquals(LocalDate.of(2024, 3, 8), plain().addBusinessDays(SUN, 5));
    }

    @Test
    void negativeDaysAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> plain().addBusinessDays(FRI, -1));
    }

    @Test
    void businessDaysBetween() {
        BusinessCalendar calendar = plain();
        assertEquals(5, calendar.businessDaysBetween(FRI, LocalDate.of(2024, 3, 8)));
        assertEquals(0, calendar.businessDaysBetween(FRI, FRI));
        assertEquals(0, calendar.businessDaysBetween(FRI, SUN));
        assertEquals(1, calendar.businessDaysBetween(SAT, MON));
    }

    @Test
    void fromAfterToIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> plain().businessDaysBetween(MON, FRI));
    }

    @Test
    void betweenUndoesAdd() {
        Set<LocalDate> holidays = new HashSet<>();
        holidays.add(LocalDate.of(2024, 12, 25));
        holidays.add(LocalDate.of(2024, 12, 26));
        holidays.add(LocalDate.of(2025, 1, 1));
        holidays.add(LocalDate.of(2024, 12, 28)); // a Saturday
        BusinessCalendar calendar = new BusinessCalendar(holidays);
        LocalDate start = LocalDate.of(2024, 12, 15);
        for (int offset = 0; offset < 30; offset++) {
            LocalDate day = start.plusDays(offset);
            for (int days = 0; days <= 25; days++) {
                LocalDate due = calendar.addBusinessDays(day, days);
                assertEquals(days, calendar.businessDaysBetween(day, due), day + " + " + days);
                if (days > 0) {
                    assertTrue(calendar.isBusinessDay(due), day + " + " + days);
                }
            }
        }
    }

    @Test
    void laterChangesToTheSetDoNotMatter() {
        Set<LocalDate> holidays = new HashSet<>();
        BusinessCalendar calendar = new BusinessCalendar(holidays);
        holidays.add(MON);
        assertTrue(calendar.isBusinessDay(MON));
        assertEquals(MON, calendar.addBusinessDays(FRI, 1));
    }
}
