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
        cache.put("a", 1);
        assertEquals(1, cache.get("a"));
        assertNull(cache.get("b"));
        cache.put("b", 2);
        assertEquals(2, cache.get("b"));
        assertNull(cache.get("c"));
        cache.put("c", 3);
        assertEquals(3, cache.get("c"));
        assertNull(cache.get("d"));
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
        cache.put("d", 4);
        assertEquals(4, cache.size());
    }

    @Test
    public void testKeys() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        List<String> keys = cache.keys();
        assertEquals(0, keys.size());
        cache.put("a", 1);
        keys = cache.keys();
        assertEquals(1, keys.size());
        keys = cache.keys();
        assertEquals(1, keys.size());
        cache.put("b", 2);
        keys = cache.keys();
        assertEquals(2, keys.size());
        keys = cache.keys();
        assertEquals(2, keys.size());
        cache.put("c", 3);
        keys = cache.keys();
        assertEquals(3, keys.size());
        keys = cache.keys();
        assertEquals(3, keys.size());
        cache.put("d", 4);
        keys = cache.keys();
        assertEquals(4, keys.size());
    }
}
