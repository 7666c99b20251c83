// Acceptance tests of java-lru-cache, written from request.md alone.
import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LruCacheAcceptanceTest {
    @Test
    void capacityBelowOneIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new LruCache<String, Integer>(0));
        assertThrows(IllegalArgumentException.class, () -> new LruCache<String, Integer>(-1));
    }

    @Test
    void getOfAMissingKeyIsNull() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        assertNull(cache.get("x"));
        assertEquals(0, cache.size());
    }

    @Test
    void theStatedExample() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        assertEquals(1, cache.get("a"));
        cache.put("c", 3);
        assertNull(cache.get("b"));
        assertEquals(List.of("a", "c"), cache.keys());
    }

    @Test
    void putOnAPresentKeyReplacesWithoutEviction() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("a", 10);
        assertEquals(2, cache.size());
        assertEquals(10, cache.get("a"));
        assertEquals(2, cache.get("b"));
    }

    @Test
    void putCountsAsAUse() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("a", 3);
        cache.put("c", 4);
        assertEquals(List.of("a", "c"), cache.keys());
    }

    @Test
    void keysGoFromLeastToMostRecentlyUsed() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);
        cache.get("a");
        assertEquals(List.of("b", "c", "a"), cache.keys());
        cache.get("b");
        assertEquals(List.of("c", "a", "b"), cache.keys());
    }

    @Test
    void sizeNeverExceedsTheCapacity() {
        LruCache<Integer, Integer> cache = new LruCache<>(3);
        for (int i = 0; i < 10; i++) {
            cache.put(i, i * i);
            assertEquals(Math.min(i + 1, 3), cache.size());
        }
        assertEquals(List.of(7, 8, 9), cache.keys());
    }

    @Test
    void capacityOne() {
        LruCache<String, String> cache = new LruCache<>(1);
        cache.put("a", "x");
        cache.put("b", "y");
        assertNull(cache.get("a"));
        assertEquals("y", cache.get("b"));
        assertEquals(1, cache.size());
    }

    @Test
    void randomOperationsMatchAModel() {
        Random random = new Random(42);
        for (int round = 0; round < 50; round++) {
            int capacity = 1 + random.nextInt(5);
            LruCache<Integer, Integer> cache = new LruCache<>(capacity);
            LinkedHashMap<Integer, Integer> model = new LinkedHashMap<>(16, 0.75f, true);
            for (int step = 0; step < 200; step++) {
                int key = random.nextInt(8);
                if (random.nextBoolean()) {
                    int value = random.nextInt(1000);
                    cache.put(key, value);
                    model.put(key, value);
                    if (model.size() > capacity) {
                        Integer eldest = model.keySet().iterator().next();
                        model.remove(eldest);
                    }
                } else {
                    assertEquals(model.get(key), cache.get(key));
                }
                assertEquals(new ArrayList<>(model.keySet()), cache.keys());
                assertEquals(model.size(), cache.size());
            }
        }
    }
}
