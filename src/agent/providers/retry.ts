/**
 * How long to wait before retrying a rate-limited or overloaded request: what the server asked
 * for (`Retry-After`, or Google's `RetryInfo` in the error body), else exponential backoff; never
 * more than a cap, so a quota that resets in an hour fails at once (and a fallback can take over).
 */
export const DEFAULT_RETRY_CAP_MS = 30_000;

/** `Retry-After` in seconds or as an HTTP date (RFC 9110 section 10.2.3), in ms; null if absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const s = header.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

/**
 * Google's google.rpc.RetryInfo from an error body (`{"error": {"details": [{"@type":
 * "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}}`), in ms.
 */
export function parseRetryInfo(body: string): number | null {
  const start = body.indexOf('{');
  if (start < 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.slice(start));
  } catch {
    return null;
  }
  const details = (parsed as { error?: { details?: unknown } }).error?.details;
  if (!Array.isArray(details)) return null;
  for (const d of details as { '@type'?: string; retryDelay?: unknown }[]) {
    if (typeof d['@type'] === 'string' && d['@type'].endsWith('google.rpc.RetryInfo') && typeof d.retryDelay === 'string') {
      const m = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay.trim());
      if (m) return Math.round(Number(m[1]) * 1000);
    }
  }
  return null;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason?: string };

/** Whether and when to retry attempt `attempt` (1-based) that failed with this status. */
export function retryDecision(o: { status: number; attempt: number; maxAttempts: number; askedMs: number | null; capMs?: number; baseMs?: number }): RetryDecision {
  const retryable = o.status === 0 || o.status === 408 || o.status === 429 || o.status >= 500;
  if (!retryable || o.attempt >= o.maxAttempts) return { retry: false };
  const cap = o.capMs ?? DEFAULT_RETRY_CAP_MS;
  if (o.askedMs !== null && o.askedMs > cap) {
    return { retry: false, reason: `the API asks to wait ${Math.ceil(o.askedMs / 1000)} s before retrying, longer than coral waits (${Math.round(cap / 1000)} s)` };
  }
  const backoff = (o.baseMs ?? 500) * 2 ** (o.attempt - 1);
  return { retry: true, delayMs: Math.min(cap, o.askedMs ?? backoff) };
}
