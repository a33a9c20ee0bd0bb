/**
 * Beyla reports `rpc.method` (and names spans) with the raw path `/pkg.Service/Method`; SDKs split it
 * into `rpc.service` and `rpc.method`. Both are split the same way so the two sources group together.
 */
export function splitRpcPath(path: string): { service: string | null; method: string } {
  const trimmed = path.replace(/^\//, '');
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? { service: null, method: trimmed } : { service: trimmed.slice(0, slash), method: trimmed.slice(slash + 1) };
}
