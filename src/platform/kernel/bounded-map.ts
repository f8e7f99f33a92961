/**
 * Sets `key` in an insertion-ordered map that holds at most `max` entries: when it is full, the
 * oldest entry goes first.
 */
export function setBounded<K, V>(map: Map<K, V>, max: number, key: K, value: V): void {
  if (map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}

/** The entry of `key` until it expires (`expiresAt`, epoch milliseconds); an expired one is dropped. */
export function unexpired<K, V extends { expiresAt: number }>(map: Map<K, V>, key: K): V | null {
  const entry = map.get(key);
  if (!entry) return null;
  if (entry.expiresAt <= Date.now()) {
    map.delete(key);
    return null;
  }
  return entry;
}
