// Reference solution of java-card-numbers.
public final class CardNumbers {
    private CardNumbers() {}

    private static String digits(String number) {
        StringBuilder out = new StringBuilder();
        for (char c : number.toCharArray()) {
            if (c >= '0' && c <= '9') {
                out.append(c);
            } else if (c != ' ' && c != '-') {
                return null;
            }
        }
        return out.toString();
    }

    public static boolean isValid(String number) {
        String d = number == null ? null : digits(number);
        if (d == null || d.length() < 12 || d.length() > 19) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < d.length(); i++) {
            int v = d.charAt(d.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                v = v * 2 > 9 ? v * 2 - 9 : v * 2;
            }
            sum += v;
        }
        return sum % 10 == 0;
    }

    public static String brand(String number) {
        String d = digits(number);
        if (d == null || d.isEmpty()) {
            return "UNKNOWN";
        }
        if (d.startsWith("4")) {
            return "VISA";
        }
        if (d.length() >= 2) {
            int two = Integer.parseInt(d.substring(0, 2));
            if (two >= 51 && two <= 55) {
                return "MASTERCARD";
            }
            if (two == 34 || two == 37) {
                return "AMEX";
            }
        }
        return "UNKNOWN";
    }

    public static String mask(String number) {
        if (!isValid(number)) {
            throw new IllegalArgumentException("not a valid card number");
        }
        String d = digits(number);
        return "*".repeat(d.length() - 4) + d.substring(d.length() - 4);
    }
}
