/**
 * A memo of a pure one-argument function that lives across frames, dropped whole when it holds
 * `limit` entries: a console frame repeats almost every string of the previous one, and scrolling
 * a large trace must not grow it without bound.
 */
export function memo<K, V>(fn: (key: K) => V, limit: number): (key: K) => V {
  let map = new Map<K, V>();
  return (key: K) => {
    let v = map.get(key);
    if (v === undefined) {
      if (map.size >= limit) map = new Map();
      v = fn(key);
      map.set(key, v);
    }
    return v;
  };
}
