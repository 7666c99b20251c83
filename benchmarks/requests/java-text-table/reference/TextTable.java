// Reference solution of java-text-table.
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

public class TextTable {
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
    private final String[] headers;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = headers.clone();
    }

    public void addRow(String... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException(
                    "expected " + headers.length + " cells, got " + cells.length);
        }
        rows.add(cells.clone());
    }

    public String render() {
        int[] widths = new int[headers.length];
        for (int c = 0; c < headers.length; c++) {
            widths[c] = headers[c].length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(line(headers, widths, false));
        StringBuilder dashes = new StringBuilder();
        for (int c = 0; c < widths.length; c++) {
            dashes.append(c == 0 ? "" : "-+-").append("-".repeat(widths[c]));
        }
        lines.add(dashes.toString());
        for (String[] row : rows) {
            lines.add(line(row, widths, true));
        }
        return String.join("\n", lines);
    }

    private static String line(String[] cells, int[] widths, boolean alignNumbers) {
        StringBuilder out = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            String pad = " ".repeat(widths[c] - cells[c].length());
            boolean right = alignNumbers && NUMBER.matcher(cells[c]).matches();
            out.append(c == 0 ? "" : " | ").append(right ? pad + cells[c] : cells[c] + pad);
        }
        return out.toString().stripTrailing();
    }
}
