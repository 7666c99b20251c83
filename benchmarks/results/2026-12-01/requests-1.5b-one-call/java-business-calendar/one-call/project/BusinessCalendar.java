import java.time.LocalDate;
import java.util.Set;

public class BusinessCalendar {
    private Set<LocalDate> holidays;

    public BusinessCalendar(Set<LocalDate> holidays) {
        this.holidays = holidays;
    }

    public boolean isBusinessDay(LocalDate day) {
        return day.getDayOfWeek() != java.time.DayOfWeek.SATURDAY && day.getDayOfWeek() != java.time.DayOfWeek.SUNDAY && !holidays.contains(day);
    }

    public LocalDate addBusinessDays(LocalDate start, int days) {
        if (days < 0) {
            throw new IllegalArgumentException("Days must be non-negative");
        }

        LocalDate result = start;
        while (days > 0) {
            result = result.plusDays(1);
            if (!isBusinessDay(result)) {
                result = result.minusDays(1);
            }
            days--;
        }

        return result;
    }

    public int businessDaysBetween(LocalDate from, LocalDate to) {
        if (from.isAfter(to)) {
            throw new IllegalArgumentException("From date must be before or equal to to date");
        }

        int count = 0;
        LocalDate current = from;
        while (!current.isAfter(to)) {
            if (isBusinessDay(current)) {
                count++;
            }
            current = current.plusDays(1);
        }

        return count;
    }
}
