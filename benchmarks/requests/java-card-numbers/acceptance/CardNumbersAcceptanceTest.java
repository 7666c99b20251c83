// Acceptance tests of java-card-numbers, written from request.md alone.
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CardNumbersAcceptanceTest {
    /** prefix followed by zeros and a Luhn check digit, {@code length} digits in all. */
    private static String luhnValid(String prefix, int length) {
        StringBuilder digits = new StringBuilder(prefix);
        while (digits.length() < length - 1) {
            digits.append('0');
        }
        for (int check = 0; check <= 9; check++) {
            String candidate = digits.toString() + check;
            if (luhnSum(candidate) % 10 == 0) {
                return candidate;
            }
        }
        throw new AssertionError("no check digit");
    }

    private static int luhnSum(String digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
        }
        return sum;
    }

    @Test
    void visaRow() {
        assertTrue(CardNumbers.isValid("4111 1111 1111 1111"));
        assertEquals("VISA", CardNumbers.brand("4111 1111 1111 1111"));
    }

    @Test
    void mastercardRow() {
        assertTrue(CardNumbers.isValid("5500-0000-0000-0004"));
        assertEquals("MASTERCARD", CardNumbers.brand("5500-0000-0000-0004"));
    }

    @Test
    void amexRow() {
        assertTrue(CardNumbers.isValid("3782 822463 10005"));
        assertEquals("AMEX", CardNumbers.brand("3782 822463 10005"));
    }

    @Test
    void badChecksumRow() {
        assertFalse(CardNumbers.isValid("4111 1111 1111 1112"));
        assertEquals("VISA", CardNumbers.brand("4111 1111 1111 1112"));
    }

    @Test
    void unknownBrandRow() {
        assertTrue(CardNumbers.isValid("6011 0000 0000 0004"));
        assertEquals("UNKNOWN", CardNumbers.brand("6011 0000 0000 0004"));
    }

    @Test
    void otherCharactersMakeTheNumberInvalid() {
        assertFalse(CardNumbers.isValid("4111 1111 1111 111a"));
        assertFalse(CardNumbers.isValid("4111.1111.1111.1111"));
        assertFalse(CardNumbers.isValid("4111_1111_1111_1111"));
    }

    @Test
    void lengthMustBeTwelveToNineteenDigits() {
        assertFalse(CardNumbers.isValid(luhnValid("4", 11)));
        assertTrue(CardNumbers.isValid(luhnValid("4", 12)));
        assertTrue(CardNumbers.isValid(luhnValid("4", 19)));
        assertFalse(CardNumbers.isValid(luhnValid("4", 20)));
        assertFalse(CardNumbers.isValid(""));
    }

    @Test
    void brandPrefixBoundaries() {
        assertEquals("MASTERCARD", CardNumbers.brand(luhnValid("51", 16)));
        assertEquals("MASTERCARD", CardNumbers.brand(luhnValid("55", 16)));
        assertEquals("UNKNOWN", CardNumbers.brand(luhnValid("50", 16)));
        assertEquals("UNKNOWN", CardNumbers.brand(luhnValid("56", 16)));
        assertEquals("AMEX", CardNumbers.brand(luhnValid("34", 15)));
        assertEquals("UNKNOWN", CardNumbers.brand(luhnValid("35", 15)));
    }

    @Test
    void maskExample() {
        assertEquals("************1111", CardNumbers.mask("4111 1111 1111 1111"));
    }

    @Test
    void maskDropsHyphens() {
        assertEquals("************0004", CardNumbers.mask("5500-0000-0000-0004"));
        assertEquals("***********0005", CardNumbers.mask("3782 822463 10005"));
    }

    @Test
    void maskRejectsAnInvalidNumber() {
        assertThrows(IllegalArgumentException.class, () -> CardNumbers.mask("4111 1111 1111 1112"));
        assertThrows(IllegalArgumentException.class, () -> CardNumbers.mask("12ab"));
    }
}
