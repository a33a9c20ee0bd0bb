import { timingSafeEqual } from 'node:crypto';

/**
 * Who may talk to the colony's port (OTLP and /mcp alike): on loopback, only requests naming a
 * loopback Host (a web page reaching 127.0.0.1 through DNS rebinding names its own domain), and
 * with a token, only requests carrying it. Transport-neutral: the gRPC receiver passes :authority
 * and its authorization metadata.
 */
export interface AccessPolicy {
  /** Host header values accepted (host:port); empty accepts any (a token is then required beyond loopback). */
  allowedHosts: string[];
  /** When set, `Authorization: Bearer <token>` (scheme in any case) is required. */
  token?: string;
}

export interface AccessDenied {
  status: 401 | 403;
  message: string;
  headers: Record<string, string>;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token of an Authorization header; the scheme name is case-insensitive (RFC 9110). */
export function bearerToken(authorization: string | undefined): string | null {
  const m = /^bearer[ \t]+(\S.*?)[ \t]*$/i.exec(authorization ?? '');
  return m ? m[1] : null;
}

export function checkAccess(policy: AccessPolicy, host: string | undefined, authorization: string | undefined): AccessDenied | null {
  const h = (host ?? '').toLowerCase();
  if (policy.allowedHosts.length > 0 && !policy.allowedHosts.some((a) => a.toLowerCase() === h)) {
    return { status: 403, message: `Host "${host ?? ''}" is not allowed (DNS-rebinding protection); connect to ${policy.allowedHosts[0]}.`, headers: {} };
  }
  if (policy.token !== undefined) {
    const given = bearerToken(authorization);
    if (given === null || !sameSecret(given, policy.token)) {
      return { status: 401, message: 'Missing or wrong bearer token: send Authorization: Bearer <token> (the --token the colony was started with).', headers: { 'www-authenticate': 'Bearer' } };
    }
  }
  return null;
}
