import java.util.*;

class LruCache<K, V> {
    private final int capacity;
    private final Map<K, V> cache;
    private final Queue<K> order;

    public LruCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("Capacity must be at least 1");
        }
        this.capacity = capacity;
        this.cache = new HashMap<>();
        this.order = new LinkedList<>();
    }

    public V get(K key) {
        if (!cache.containsKey(key)) {
            return null;
        }
        order.remove(key);
        order.add(key);
        return cache.get(key);
    }

    public void put(K key, V value) {
        if (cache.containsKey(key)) {
            order.remove(key);
        } else if (cache.size() == capacity) {
            cache.remove(order.poll());
        }
        order.add(key);
        cache.put(key, value);
    }

    public int size() {
        return cache.size();
    }

    public List<K> keys() {
        return new ArrayList<>(order);
    }
}
