// Reference solution of java-business-calendar.
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.Set;

public class BusinessCalendar {
    private final Set<LocalDate> holidays;

    public BusinessCalendar(Set<LocalDate> holidays) {
        this.holidays = Set.copyOf(holidays);
    }

    public boolean isBusinessDay(LocalDate day) {
        DayOfWeek dow = day.getDayOfWeek();
        return dow != DayOfWeek.SATURDAY && dow != DayOfWeek.SUNDAY && !holidays.contains(day);
    }

    public LocalDate addBusinessDays(LocalDate start, int days) {
        if (days < 0) {
            throw new IllegalArgumentException("days must not be negative");
        }
        LocalDate day = start;
        for (int left = days; left > 0; ) {
            day = day.plusDays(1);
            if (isBusinessDay(day)) {
                left--;
            }
        }
        return day;
    }

    public int businessDaysBetween(LocalDate from, LocalDate to) {
        if (from.isAfter(to)) {
            throw new IllegalArgumentException("from is after to");
        }
        int count = 0;
        for (LocalDate day = from.plusDays(1); !day.isAfter(to); day = day.plusDays(1)) {
            if (isBusinessDay(day)) {
                count++;
            }
        }
        return count;
    }
}
