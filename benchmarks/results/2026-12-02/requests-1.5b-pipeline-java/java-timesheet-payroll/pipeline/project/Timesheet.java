import java.time.LocalDate;

public class Timesheet {
    private double[] hoursPerDay;

    public Timesheet() {
        hoursPerDay = new double[7];
    }

    public void log(LocalDate day, double hours) {
        if (hours <= 0 || hours > 24) {
            throw new IllegalArgumentException("Hours must be more than 0 and at most 24");
        }
        hoursPerDay[day.getDayOfWeek().getValue() - 1] += hours;
    }

    public double hoursOn(LocalDate day) {
        return hoursPerDay[day.getDayOfWeek().getValue() - 1];
    }

    public double totalHours() {
        double total = 0;
        for (double hours : hoursPerDay) {
            total += hours;
        }
        return total;
    }
}
