// Acceptance tests of java-text-table, written from request.md alone.
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class TextTableAcceptanceTest {
    @Test
    void theStatedExample() {
        TextTable table = new TextTable("item", "qty", "price");
        table.addRow("apple", "3", "0.5");
        table.addRow("watermelon", "12", "3.25");
        String expected = String.join("\n",
                "item       | qty | price",
                "-----------+-----+------",
                "apple      |   3 |   0.5",
                "watermelon |  12 |  3.25");
        assertEquals(expected, table.render());
    }

    @Test
    void aRowWithTheWrongNumberOfCellsIsRejected() {
        TextTable table = new TextTable("a", "b");
        assertThrows(IllegalArgumentException.class, () -> table.addRow("1"));
        assertThrows(IllegalArgumentException.class, () -> table.addRow("1", "2", "3"));
        table.addRow("1", "2");
    }

    @Test
    void aWideHeaderSetsTheWidthAndLinesHaveNoTrailingSpaces() {
        TextTable table = new TextTable("name", "description");
        table.addRow("a", "b");
        assertEquals("name | description\n-----+------------\na    | b", table.render());
    }

    @Test
    void negativeAndDecimalNumbersAreRightAligned() {
        TextTable table = new TextTable("delta", "note");
        table.addRow("-3", "down");
        table.addRow("19.99", "up");
        assertEquals("delta | note\n------+-----\n   -3 | down\n19.99 | up", table.render());
    }

    @Test
    void textThatStartsWithDigitsIsLeftAligned() {
        TextTable table = new TextTable("code", "n");
        table.addRow("12abc", "7");
        table.addRow("x", "100");
        assertEquals("code  | n\n------+----\n12abc |   7\nx     | 100", table.render());
    }

    @Test
    void noNewlineAtTheEnd() {
        TextTable table = new TextTable("a");
        table.addRow("b");
        String out = table.render();
        assertFalse(out.endsWith("\n"));
        assertEquals("a\n-\nb", out);
    }

    @Test
    void aTableWithoutRowsIsTheHeaderAndTheDashes() {
        assertEquals("a | bb\n--+---", new TextTable("a", "bb").render());
    }

    @Test
    void separatorsLineUpOnEveryLine() {
        TextTable table = new TextTable("city", "population", "country");
        table.addRow("Oslo", "709037", "Norway");
        table.addRow("Rio de Janeiro", "6748000", "Brazil");
        table.addRow("Bern", "134794", "Switzerland");
        String[] lines = table.render().split("\n", -1);
        assertEquals(5, lines.length);
        String dashes = lines[1];
        for (int i = 0; i < dashes.length(); i++) {
            char c = dashes.charAt(i);
            assertTrue(c == '-' || c == '+', dashes);
        }
        for (String line : lines) {
            assertEquals(line.stripTrailing(), line);
            if (line == dashes) {
                continue;
            }
            for (int i = 0; i < line.length(); i++) {
                boolean bar = line.charAt(i) == '|';
                boolean plus = i < dashes.length() && dashes.charAt(i) == '+';
                assertEquals(plus, bar, "column " + i + " of '" + line + "'");
            }
        }
    }
}
