import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class CardNumbers {
    private static final Pattern LUNCK_CHECKSUM_PATTERN = Pattern.compile("^(\\d{12,19})$");
    private static final int LUNCK_CHECKSUM_MULTIPLIER = 11;
    private static final int LUNCK_CHECKSUM_DIVISOR = 10;

    public static boolean isValid(String number) {
        if (number == null || number.isEmpty()) {
            return false;
        }

        String cleanedNumber = number.replaceAll("[\\s-]", "");
        if (!LUNCK_CHECKSUM_PATTERN.matcher(cleanedNumber).matches()) {
            return false;
        }

        int checksum = 0;
        int power = 0;
        for (int i = cleanedNumber.length() - 1; i >= 0; i--) {
            int digit = Character.getNumericValue(cleanedNumber.charAt(i));
            checksum += digit * Math.pow(LUNCK_CHECKSUM_MULTIPLIER, power);
            power++;
        }

        return checksum % LUNCK_CHECKSUM_DIVISOR == 0;
    }

    public static String brand(String number) {
        if (number == null || number.isEmpty()) {
            throw new IllegalArgumentException("Invalid number");
        }

        String cleanedNumber = number.replaceAll("[\\s-]", "");
        if (!LUNCK_CHECKSUM_PATTERN.matcher(cleanedNumber).matches()) {
            throw new IllegalArgumentException("Invalid number");
        }

        if (cleanedNumber.startsWith("4")) {
            return "VISA";
        } else if (cleanedNumber.startsWith("5")) {
            return cleanedNumber.startsWith("51") || cleanedNumber.startsWith("52") || cleanedNumber.startsWith("53") || cleanedNumber.startsWith("54") || cleanedNumber.startsWith("55") ? "MASTERCARD" : "UNKNOWN";
        } else if (cleanedNumber.startsWith("34") || cleanedNumber.startsWith("37")) {
            return "AMEX";
        } else {
            return "UNKNOWN";
        }
    }

    public static String mask(String number) {
        if (number == null || number.isEmpty()) {
            throw new IllegalArgumentException("Invalid number");
        }

        String cleanedNumber = number.replaceAll("[\\s-]", "");
        if (!LUNCK_CHECKSUM_PATTERN.matcher(cleanedNumber).matches()) {
            throw new IllegalArgumentException("Invalid number");
        }

        return "*".repeat(cleanedNumber.length() - 4) + cleanedNumber.substring(cleanedNumber.length() - 4);
    }
}
