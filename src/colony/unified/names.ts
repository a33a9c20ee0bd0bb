/**
 * Name normalisation for matching the same operation across eBPF and SDK spans: ID-like route
 * segments in any spelling ({id}, :id, [id], *) become {}, RPC paths lose their leading `/` and a
 * `grpc.` prefix, case is ignored.
 */
export function normalizeRoute(route: string): string {
  return route
    .replace(/\{[^}/]*\}|\[[^\]/]*\]|(?<=\/):[^/]+|(?<=\/)\*(?=\/|$)/g, '{}')
    .toLowerCase();
}

export function normalizeSpanName(name: string): string {
  let n = name.trim();
  n = n.replace(/^grpc\./i, '').replace(/^\//, '');
  return normalizeRoute(n);
}

/**
 * The route part of an HTTP operation, or null: a server span without `http.route` is named by the
 * semantic conventions `{method}` (older instrumentations: `HTTP {method}`), so a span name standing
 * in for the route that is only the method says nothing more, and one that starts with the method
 * (`GET /cart`) already is `{method} {route}`.
 */
export function httpRoutePart(method: string | null, route: string | null): string | null {
  const r = route?.trim() ?? '';
  if (!r || r.toLowerCase() === 'null') return null;
  const m = method?.trim().toUpperCase() ?? '';
  if (!m) return r;
  const upper = r.toUpperCase();
  if (upper === m || upper === `HTTP ${m}` || upper === 'HTTP') return null;
  if (upper.startsWith(`${m} `)) return r.slice(m.length + 1).trim() || null;
  return r;
}

/** An HTTP operation as people read it: `GET /cart`, the method alone without a route, never `POST null` or `GET GET`. */
export function httpOperation(method: string | null, route: string | null): string {
  const m = method?.trim() || '';
  const r = httpRoutePart(m, route);
  if (!r) return m || 'HTTP';
  return m ? `${m} ${r}` : r;
}

/** Edits (insert, delete, replace one character) from `a` to `b`, case ignored. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[y.length];
}

/**
 * Known names, the likeliest meant by `asked` first: those containing it or contained in it (a
 * shortened or prefixed name), then by edit distance; ties by name.
 */
export function closestNames(asked: string, known: readonly string[]): string[] {
  const a = asked.toLowerCase();
  const rank = new Map(known.map((k) => {
    const l = k.toLowerCase();
    return [k, (l.includes(a) || a.includes(l) ? 0 : 1_000) + editDistance(a, l)] as const;
  }));
  return [...known].sort((p, q) => (rank.get(p) ?? 0) - (rank.get(q) ?? 0) || p.localeCompare(q));
}
