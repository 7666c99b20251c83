import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
import java.util.List;

public class LruCacheTest {

    @Test
    public void testConstructor() {
        assertThrows(IllegalArgumentException.class, () -> new LruCache(0));
        assertThrows(IllegalArgumentException.class, () -> new LruCache(-1));
        assertThrows(IllegalArgumentException.class, () -> new LruCache(1));
    }

    @Test
    public void testGet() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        assertNull(cache.get("a"));
        assertNull(cache.get("b"));
        cache.put("a", 1);
        assertNull(cache.get("b"));
        cache.put("b", 2);
        assertEquals(2, cache.size());
        assertEquals(1, cache.get("a"));
        assertEquals(2, cache.get("b"));
    }

    @Test
    public void testPut() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        assertNull(cache.get("a"));
        assertNull(cache.get("b"));
        cache.put("a", 1);
        assertNull(cache.get("b"));
        cache.put("b", 2);
        assertEquals(2, cache.size());
        assertEquals(1, cache.get("a"));
        assertEquals(2, cache.get("b"));
        cache.put("c", 3);
        assertEquals(3, cache.size());
        assertEquals(1, cache.get("a"));
        assertEquals(2, cache.get("b"));
        assertEquals(3, cache.get("c"));
    }

    @Test
    public void testSize() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        assertEquals(0, cache.size());
        cache.put("a", 1);
        assertEquals(1, cache.size());
        cache.put("b", 2);
        assertEquals(2, cache.size());
        cache.put("c", 3);
        assertEquals(3, cache.size());
    }

    @Test
    public void testKeys() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        List<String> keys = cache.keys();
        assertEquals(2, keys.size());
        assertTrue(keys.contains("a"));
        assertTrue(keys.contains("b"));
        cache.put("c", 3);
        keys = cache.keys();
        assertEquals(3, keys.size());
        assertTrue(keys.contains("a"));
        assertTrue(keys.contains("b"));
        assertTrue(keys.contains("c"));
    }
}
