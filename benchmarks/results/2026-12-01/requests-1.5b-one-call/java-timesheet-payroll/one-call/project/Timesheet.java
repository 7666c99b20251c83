public class Timesheet {
    private LocalDate day;
    private double hours;

    public Timesheet(LocalDate day, double hours) {
        if (hours <= 0 || hours > 24) {
            throw new IllegalArgumentException("Hours must be more than 0 and at most 24.");
        }
        this.day = day;
        this.hours = hours;
    }

    public LocalDate getDay() {
        return day;
    }

    public double getHours() {
        return hours;
    }

    public void log(LocalDate day, double hours) {
        if (hours <= 0 || hours > 24) {
            throw new IllegalArgumentException("Hours must be more than 0 and at most 24.");
        }
        if (this.day.equals(day)) {
            this.hours += hours;
        } else {
            this.day = day;
            this.hours = hours;
        }
    }

    public double hoursOn(LocalDate day) {
        return this.day.equals(day) ? this.hours : 0;
    }

    public double totalHours() {
        return this.hours;
    }
}
