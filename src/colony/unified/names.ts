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
