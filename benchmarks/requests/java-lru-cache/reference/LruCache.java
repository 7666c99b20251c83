// Reference solution of java-lru-cache.
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

public class LruCache<K, V> {
    private final int capacity;
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);

    public LruCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
    }

    public V get(K key) {
        return entries.get(key);
    }

    public void put(K key, V value) {
        if (!entries.containsKey(key) && entries.size() == capacity) {
            entries.remove(entries.keySet().iterator().next());
        }
        entries.put(key, value);
    }

    public int size() {
        return entries.size();
    }

    public List<K> keys() {
        return new ArrayList<>(entries.keySet());
    }
}
