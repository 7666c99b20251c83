import java.time.LocalDate;

public class Payroll {
    public static long grossPayCents(Timesheet sheet, long hourlyRateCents) {
        if (hourlyRateCents <= 0) {
            throw new IllegalArgumentException("Hourly rate must be positive");
        }

        long totalHours = sheet.totalHours();
        if (totalHours > 24) {
            throw new IllegalArgumentException("Total hours cannot exceed 24");
        }

        long basePay = totalHours <= 40 ? totalHours * hourlyRateCents : 40 * hourlyRateCents + (totalHours - 40) * hourlyRateCents * 1.5;
        return Math.round(basePay * 100) / 100;
    }
}
