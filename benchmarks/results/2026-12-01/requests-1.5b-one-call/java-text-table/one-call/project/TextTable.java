public class TextTable {
    private String[] headers;
    private String[][] rows;

    public TextTable(String... headers) {
        this.headers = headers;
        this.rows = new String[0][headers.length];
    }

    public void addRow(String... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("Number of cells must match the number of headers");
        }
        rows = Arrays.copyOf(rows, rows.length + 1);
        rows[rows.length - 1] = cells;
    }

    public String render() {
        int maxWidths[] = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            maxWidths[i] = headers[i].length();
            for (String[] row : rows) {
                if (row[i] != null) {
                    maxWidths[i] = Math.max(maxWidths[i], row[i].length());
                }
            }
        }

        StringBuilder table = new StringBuilder();
        table.append(String.join(" | ", headers)).append("\n");
        table.append("-+-".repeat(headers.length)).append("\n");

        for (String[] row : rows) {
            for (int i = 0; i < headers.length; i++) {
                String cell = row[i];
                if (cell == null) {
                    cell = "";
                }
                if (cell.contains(".")) {
                    cell = String.format("%-" + maxWidths[i] + "s", cell);
                } else {
                    cell = String.format("%-" + maxWidths[i] + "s", cell);
                }
            }
            table.append(cell).append("\n");
        }

        return table.toString();
    }
}
