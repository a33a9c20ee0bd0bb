import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Who may talk to the colony's port (OTLP and /mcp alike): on loopback, only requests naming a
 * loopback Host (a web page reaching 127.0.0.1 through DNS rebinding names its own domain), and
 * with a token, only requests carrying it. Transport-neutral: the gRPC receiver passes :authority
 * and its authorization metadata.
 */
export interface AccessPolicy {
  /** Host header values accepted (host:port); empty accepts any (a token is then required beyond loopback). */
  allowedHosts: string[];
  /** When set, `Authorization: Bearer <token>` (see bearerToken) is required. */
  token?: string;
}

export interface AccessDenied {
  status: 401 | 403;
  message: string;
  headers: Record<string, string>;
}

/** Compared through digests of equal length: the time taken says nothing of either value or its length. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Characters a token may have: visible ASCII, the only ones every client can put in a header. */
const TOKEN = /^[\x21-\x7e]+$/;

/**
 * The one reading of an Authorization value, for OTLP/HTTP, /mcp and OTLP/gRPC alike: the scheme
 * `Bearer` in any case (RFC 7235), exactly one space, then the token and nothing else. Blanks around
 * the whole value are not part of it (RFC 9110 5.5): Node's HTTP parser drops them before we see the
 * header, so they are dropped from gRPC metadata too, and both transports give the same answer.
 */
export function bearerToken(authorization: string | undefined): string | null {
  const value = (authorization ?? '').replace(/^[ \t]+|[ \t]+$/g, '');
  const m = /^bearer (.+)$/i.exec(value);
  return m && TOKEN.test(m[1]) ? m[1] : null;
}

/** Whether a token can be sent at all (a --token with a space never could). */
export function isSendableToken(token: string): boolean {
  return TOKEN.test(token);
}

/** Whether the Authorization values carry exactly this token; several values are refused, not guessed between. */
export function carriesToken(authorization: string | readonly string[] | undefined, token: string): boolean {
  const values = typeof authorization === 'string' ? [authorization] : (authorization ?? []);
  if (values.length !== 1) return false;
  const given = bearerToken(values[0]);
  return given !== null && sameSecret(given, token);
}

export function checkAccess(policy: AccessPolicy, host: string | undefined, authorization: string | undefined): AccessDenied | null {
  const h = (host ?? '').toLowerCase();
  if (policy.allowedHosts.length > 0 && !policy.allowedHosts.some((a) => a.toLowerCase() === h)) {
    return { status: 403, message: `Host "${host ?? ''}" is not allowed (DNS-rebinding protection); connect to ${policy.allowedHosts[0]}.`, headers: {} };
  }
  if (policy.token !== undefined) {
    if (!carriesToken(authorization, policy.token)) {
      return { status: 401, message: 'Missing or wrong bearer token: send Authorization: Bearer <token> (the --token the colony was started with).', headers: { 'www-authenticate': 'Bearer' } };
    }
  }
  return null;
}
