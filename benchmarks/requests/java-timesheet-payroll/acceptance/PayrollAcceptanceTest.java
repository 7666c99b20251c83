// Acceptance tests of java-timesheet-payroll, written from request.md alone.
import static org.junit.jupiter.api.Assertions.*;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class PayrollAcceptanceTest {
    private static final LocalDate MON = LocalDate.of(2024, 6, 3);

    @Test
    void logAndRead() {
        Timesheet sheet = new Timesheet();
        sheet.log(MON, 7.5);
        sheet.log(MON.plusDays(1), 8);
        assertEquals(7.5, sheet.hoursOn(MON), 1e-9);
        assertEquals(15.5, sheet.totalHours(), 1e-9);
    }

    @Test
    void aDayWithNothingLoggedIsZero() {
        assertEquals(0.0, new Timesheet().hoursOn(MON), 1e-9);
    }

    @Test
    void hoursOutsideTheRangeAreRejected() {
        Timesheet sheet = new Timesheet();
        assertThrows(IllegalArgumentException.class, () -> sheet.log(MON, 0));
        assertThrows(IllegalArgumentException.class, () -> sheet.log(MON, -1));
        assertThrows(IllegalArgumentException.class, () -> sheet.log(MON, 24.5));
        sheet.log(MON, 24);
        assertEquals(24.0, sheet.hoursOn(MON), 1e-9);
    }

    @Test
    void loggingADayAgainAdds() {
        Timesheet sheet = new Timesheet();
        sheet.log(MON, 3);
        sheet.log(MON, 4);
        assertEquals(7.0, sheet.hoursOn(MON), 1e-9);
        assertEquals(7.0, sheet.totalHours(), 1e-9);
    }

    @Test
    void aDayOverTwentyFourHoursIsRejectedAndNothingChanges() {
        Timesheet sheet = new Timesheet();
        sheet.log(MON, 20);
        assertThrows(IllegalArgumentException.class, () -> sheet.log(MON, 5));
        assertEquals(20.0, sheet.hoursOn(MON), 1e-9);
        assertEquals(20.0, sheet.totalHours(), 1e-9);
    }

    @Test
    void theStatedExample() {
        Timesheet sheet = new Timesheet();
        for (int i = 0; i < 5; i++) {
            sheet.log(MON.plusDays(i), 9);
        }
        assertEquals(45.0, sheet.totalHours(), 1e-9);
        assertEquals(95000L, Payroll.grossPayCents(sheet, 2000));
    }

    @Test
    void overtimeIsCountedPerWeek() {
        Timesheet sheet = new Timesheet();
        for (int i = 0; i < 3; i++) {
            sheet.log(MON.plusDays(i), 10);
            sheet.log(MON.plusDays(7 + i), 10);
        }
        assertEquals(60.0, sheet.totalHours(), 1e-9);
        assertEquals(120000L, Payroll.grossPayCents(sheet, 2000));
    }

    @Test
    void sundayBelongsToTheWeekStartingOnMonday() {
        Timesheet sheet = new Timesheet();
        for (int i = 0; i < 4; i++) {
            sheet.log(MON.plusDays(i), 10);
        }
        sheet.log(MON.plusDays(6), 5); // Sunday 2024-06-09
        sheet.log(MON.minusDays(1), 5); // Sunday 2024-06-02, the week before
        assertEquals(95000L + 10000L, Payroll.grossPayCents(sheet, 2000));
    }

    @Test
    void roundingHalvesUp() {
        Timesheet sheet = new Timesheet();
        sheet.log(MON, 1.5);
        assertEquals(1502L, Payroll.grossPayCents(sheet, 1001));
    }

    @Test
    void overtimeRoundingHalvesUp() {
        Timesheet sheet = new Timesheet();
        for (int i = 0; i < 4; i++) {
            sheet.log(MON.plusDays(i), 10);
        }
        sheet.log(MON.plusDays(4), 1);
        assertEquals(41541.5, 40 * 1001 + 1.5 * 1001, 1e-9);
        assertEquals(41542L, Payroll.grossPayCents(sheet, 1001));
    }

    @Test
    void anEmptyTimesheetPaysNothing() {
        Timesheet sheet = new Timesheet();
        assertEquals(0.0, sheet.totalHours(), 1e-9);
        assertEquals(0L, Payroll.grossPayCents(sheet, 2000));
    }
}
