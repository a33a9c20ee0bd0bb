/**
 * Loopback tests for hostnames as they appear in URLs and listen addresses ("[::1]" included).
 * Names other than "localhost" are not resolved: a name that merely points at 127.0.0.1 is not trusted.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** A bearer token may travel over HTTPS, or in plain HTTP only to this machine. */
export function tokenTransportProblem(url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return `a token is sent only over https:// or to loopback (127.0.0.1, localhost, ::1), not to ${url.protocol}//${url.host}`;
}
