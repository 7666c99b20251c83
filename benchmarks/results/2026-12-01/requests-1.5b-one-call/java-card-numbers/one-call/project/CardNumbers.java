public class CardNumbers {
    public static boolean isValid(String number) {
        // Remove spaces and hyphens
        String cleanedNumber = number.replaceAll("\\s|-", "");
        
        // Check if the cleaned number is valid
        if (cleanedNumber.length() < 12 || cleanedNumber.length() > 19) {
            return false;
        }
        
        // Calculate the Luhn checksum
        int checksum = 0;
        for (int i = cleanedNumber.length() - 1; i >= 0; i--) {
            int digit = Character.getNumericValue(cleanedNumber.charAt(i));
            if (i % 2 == 0) {
                checksum += digit;
            } else {
                checksum += digit * 2;
                if (checksum >= 10) {
                    checksum -= 9;
                }
            }
        }
        
        // Check if the checksum is valid
        return checksum % 10 == 0;
    }

    public static String brand(String number) {
        // Remove spaces and hyphens
        String cleanedNumber = number.replaceAll("\\s|-", "");
        
        // Check if the cleaned number is valid
        if (!isValid(cleanedNumber)) {
            throw new IllegalArgumentException("Invalid number");
        }
        
        // Determine the brand
        if (cleanedNumber.startsWith("4")) {
            return "VISA";
        } else if (cleanedNumber.startsWith("51") || cleanedNumber.startsWith("52") || cleanedNumber.startsWith("53") || cleanedNumber.startsWith("54") || cleanedNumber.startsWith("55")) {
            return "MASTERCARD";
        } else if (cleanedNumber.startsWith("34") || cleanedNumber.startsWith("37")) {
            return "AMEX";
        } else {
            return "UNKNOWN";
        }
    }

    public static String mask(String number) {
        // Remove spaces and hyphens
        String cleanedNumber = number.replaceAll("\\s|-", "");
        
        // Check if the cleaned number is valid
        if (!isValid(cleanedNumber)) {
            throw new IllegalArgumentException("Invalid number");
        }
        
        // Mask the number
        return "************" + cleanedNumber.substring(cleanedNumber.length() - 4);
    }
}
