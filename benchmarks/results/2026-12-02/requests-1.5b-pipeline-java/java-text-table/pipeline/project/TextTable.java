import java.util.Arrays;

public class TextTable {
    private String[] headers;
    private String[][] rows;

    public TextTable(String... headers) {
        if (headers == null || headers.length == 0) {
            throw new IllegalArgumentException("Headers must not be null or empty");
        }
        this.headers = headers;
        this.rows = new String[0][headers.length];
    }

    public void addRow(String... cells) {
        if (cells == null || cells.length != headers.length) {
            throw new IllegalArgumentException("Number of cells must match the number of headers");
        }
        rows = Arrays.copyOf(rows, rows.length + 1);
        rows[rows.length - 1] = cells;
    }

    public String render() {
        StringBuilder table = new StringBuilder();
        table.append(String.join(" | ", headers)).append("\n");
        table.append(String.join("+-", headers)).append("+-\n");
        for (String[] row : rows) {
            table.append(String.join(" | ", row)).append("\n");
        }
        return table.toString();
    }
}
