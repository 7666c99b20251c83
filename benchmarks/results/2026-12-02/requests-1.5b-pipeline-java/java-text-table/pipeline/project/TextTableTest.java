import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

public class TextTableTest {

    @Test
    public void testAddRow() {
        TextTable table = new TextTable("item", "qty", "price");
        table.addRow("apple", "3", "0.5");
        table.addRow("watermelon", "12", "3.25");
        assertEquals("item | qty | price -----------+-----+------ apple | 3 | 0.5 watermelon | 12 | 3.25", table.render());
    }

    @Test
    public void testAddRowWithDifferentCells() {
        TextTable table = new TextTable("item", "qty", "price");
        try {
            table.addRow("apple", "3", "0.5", "extra");
            fail("Expected IllegalArgumentException");
        } catch (IllegalArgumentException e) {
            assertEquals("Number of cells must match the number of headers", e.getMessage());
        }
    }

    @Test
    public void testRenderWithEmptyHeaders() {
        TextTable table = new TextTable();
        try {
            table.addRow("apple", "3", "0.5");
            fail("Expected IllegalArgumentException");
        } catch (IllegalArgumentException e) {
            assertEquals("Number of headers must be at least 1", e.getMessage());
        }
    }

    @Test
    public void testRenderWithZeroCells() {
        TextTable table = new TextTable("item", "qty", "price");
        try {
            table.addRow();
            fail("Expected IllegalArgumentException");
        } catch (IllegalArgumentException e) {
            assertEquals("Number of cells must be at least 1", e.getMessage());
        }
    }

    @Test
    public void testRenderWithNegativeNumbers() {
        TextTable table = new TextTable("item", "qty", "price");
        table.addRow("apple", "-3", "0.5");
        table.addRow("watermelon", "-12", "3.25");
        assertEquals("item | qty | price -----------+-----+------ apple | -3 | 0.5 watermelon | -12 | 3.25", table.render());
    }

    @Test
    public void testRenderWithOneElement() {
        TextTable table = new TextTable("item");
        table.addRow("apple");
        assertEquals("item | apple", table.render());
    }

    @Test
    public void testRenderWithBoundary() {
        TextTable table = new TextTable("item", "qty", "price");
        table.addRow("apple", "3", "0.5");
        table.addRow("watermelon", "12", "3.25");
        table.addRow("banana", "4", "0.75");
        assertEquals("item | qty | price -----------+-----+------ apple | 3 | 0.5 watermelon | 12 | 3.25 banana | 4 | 0.75", table.render());
    }
}
