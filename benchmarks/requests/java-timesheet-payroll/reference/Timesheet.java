// Reference solution of java-timesheet-payroll: the hours.
import java.time.LocalDate;
import java.util.Map;
import java.util.TreeMap;

public class Timesheet {
    private final TreeMap<LocalDate, Double> hours = new TreeMap<>();

    public void log(LocalDate day, double worked) {
        if (!(worked > 0 && worked <= 24)) {
            throw new IllegalArgumentException("hours must be in (0, 24]");
        }
        double total = hoursOn(day) + worked;
        if (total > 24) {
            throw new IllegalArgumentException("a day has at most 24 hours");
        }
        hours.put(day, total);
    }

    public double hoursOn(LocalDate day) {
        return hours.getOrDefault(day, 0.0);
    }

    public double totalHours() {
        double sum = 0;
        for (double h : hours.values()) {
            sum += h;
        }
        return sum;
    }

    Map<LocalDate, Double> days() {
        return hours;
    }
}
