// Reference solution of java-timesheet-payroll: the pay.
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;
import java.util.Map;
import java.util.TreeMap;

public final class Payroll {
    private Payroll() {}

    public static long grossPayCents(Timesheet sheet, long hourlyRateCents) {
        Map<LocalDate, Double> weeks = new TreeMap<>();
        for (Map.Entry<LocalDate, Double> e : sheet.days().entrySet()) {
            LocalDate monday = e.getKey().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            weeks.merge(monday, e.getValue(), Double::sum);
        }
        BigDecimal rate = BigDecimal.valueOf(hourlyRateCents);
        BigDecimal total = BigDecimal.ZERO;
        for (double h : weeks.values()) {
            BigDecimal worked = BigDecimal.valueOf(h);
            BigDecimal regular = worked.min(BigDecimal.valueOf(40));
            BigDecimal extra = worked.subtract(regular);
            total = total.add(regular.multiply(rate))
                    .add(extra.multiply(rate).multiply(new BigDecimal("1.5")));
        }
        return total.setScale(0, RoundingMode.HALF_UP).longValueExact();
    }
}
