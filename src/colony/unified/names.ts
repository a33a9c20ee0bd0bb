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
