import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

import java.time.LocalDate;
import java.util.HashSet;
import java.util.Set;

public class BusinessCalendarTest {

    @Test
    public void testIsBusinessDay() {
        BusinessCalendar calendar = new BusinessCalendar(new HashSet<>());
        assertTrue(calendar.isBusinessDay(LocalDate.of(2024, 3, 1)));
        assertTrue(calendar.isBusinessDay(LocalDate.of(2024, 3, 2)));
        assertTrue(calendar.isBusinessDay(LocalDate.of(2024, 3, 3)));
        assertTrue(calendar.isBusinessDay(LocalDate.of(2024, 3, 4)));
        assertTrue(calendar.isBusinessDay(LocalDate.of(2024, 3, 5)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 6)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 7)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 8)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 9)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 10)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 11)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 12)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 13)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 14)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 15)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 16)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 17)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 18)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 19)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 20)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 21)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 22)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 23)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 24)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 25)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 26)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 27)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 28)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 29)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 30)));
        assertFalse(calendar.isBusinessDay(LocalDate.of(2024, 3, 31)));
    }

    @Test
    public void testAddBusinessDays() {
        BusinessCalendar calendar = new BusinessCalendar(new HashSet<>());
        assertEquals(LocalDate.of(2024, 3, 1), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 0));
        assertEquals(LocalDate.of(2024, 3, 2), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 1));
        assertEquals(LocalDate.of(2024, 3, 3), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 2));
        assertEquals(LocalDate.of(2024, 3, 4), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 3));
        assertEquals(LocalDate.of(2024, 3, 5), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 4));
        assertEquals(LocalDate.of(2024, 3, 6), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 5));
        assertEquals(LocalDate.of(2024, 3, 7), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 6));
        assertEquals(LocalDate.of(2024, 3, 8), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 7));
        assertEquals(LocalDate.of(2024, 3, 9), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 8));
        assertEquals(LocalDate.of(2024, 3, 10), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 9));
        assertEquals(LocalDate.of(2024, 3, 11), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 10));
        assertEquals(LocalDate.of(2024, 3, 12), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 11));
        assertEquals(LocalDate.of(2024, 3, 13), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 12));
        assertEquals(LocalDate.of(2024, 3, 14), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 13));
        assertEquals(LocalDate.of(2024, 3, 15), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 14));
        assertEquals(LocalDate.of(2024, 3, 16), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 15));
        assertEquals(LocalDate.of(2024, 3, 17), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 16));
        assertEquals(LocalDate.of(2024, 3, 18), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 17));
        assertEquals(LocalDate.of(2024, 3, 19), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 18));
        assertEquals(LocalDate.of(2024, 3, 20), calendar.addBusinessDays(LocalDate.of(2024, 3, 1), 19));
    }
}
