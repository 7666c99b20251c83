import java.util.*;

public class LruCache<K, V> {
    private final int capacity;
    private final LinkedHashMap<K, V> cache;
    private int size;

    public LruCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("Capacity must be at least 1");
        }
        this.capacity = capacity;
        this.cache = new LinkedHashMap<>(capacity);
        this.size = 0;
    }

    public V get(K key) {
        V value = cache.get(key);
        if (value != null) {
            cache.remove(key);
            cache.put(key, value);
        }
        return value;
    }

    public void put(K key, V value) {
        if (cache.containsKey(key)) {
            cache.remove(key);
        }
        if (size == capacity) {
            cache.remove(cache.keySet().iterator().next());
        }
        cache.put(key, value);
        size++;
    }

    public int size() {
        return size;
    }

    public List<K> keys() {
        return new ArrayList<>(cache.keySet());
    }
}
