import java.time.LocalDate;
import java.util.Set;
import java.util.HashSet;

public class BusinessCalendar {
    private Set<LocalDate> holidays;

    public BusinessCalendar(Set<LocalDate> holidays) {
        if (holidays == null) {
            throw new IllegalArgumentException("Holidays cannot be null");
        }
        this.holidays = new HashSet<>(holidays);
    }

    public boolean isBusinessDay(LocalDate day) {
        return !holidays.contains(day) && day.getDayOfWeek().getValue() >= 1 && day.getDayOfWeek().getValue() <= 5;
    }

    public LocalDate addBusinessDays(LocalDate start, int days) {
        if (start.isAfter(start.plusDays(days))) {
            throw new IllegalArgumentException("from date cannot be after to date");
        }
        for (int i = 0; i < days; i++) {
            start = start.plusDays(1);
            while (holidays.contains(start)) {
                start = start.plusDays(1);
            }
        }
        return start;
    }

    public int businessDaysBetween(LocalDate from, LocalDate to) {
        if (from.isAfter(to)) {
            throw new IllegalArgumentException("from date cannot be after to date");
        }
        int businessDays = 0;
        for (LocalDate date = from; !date.isAfter(to); date = date.plusDays(1)) {
            if (isBusinessDay(date)) {
                businessDays++;
            }
        }
        return businessDays;
    }
}
