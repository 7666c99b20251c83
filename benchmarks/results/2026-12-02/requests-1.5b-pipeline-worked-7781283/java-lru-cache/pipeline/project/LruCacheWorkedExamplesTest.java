import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

public class LruCacheWorkedExamplesTest {

    @Test
    public void example1() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        assertEquals(1, cache.get("a"));
        cache.put("c", 3);
        assertArrayEquals(new String[]{"a", "c"}, cache.keys().toArray());
    }
}
