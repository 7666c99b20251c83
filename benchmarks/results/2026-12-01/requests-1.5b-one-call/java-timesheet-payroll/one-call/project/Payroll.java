public class Payroll {
    public static long grossPayCents(Timesheet sheet, long hourlyRateCents) {
        long totalHours = sheet.totalHours();
        if (totalHours <= 40) {
            return totalHours * hourlyRateCents;
        } else {
            return 40 * hourlyRateCents + (totalHours - 40) * hourlyRateCents * 1.5;
        }
    }
}
