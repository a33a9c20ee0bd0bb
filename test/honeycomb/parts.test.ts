import { describe, expect, it } from 'vitest';
import { derivedType, referencedColumns } from '../../src/honeycomb/expressions.js';
import { isStale, relativeTime } from '../../src/honeycomb/relative-time.js';
import { customColumns, detectSemanticGroups } from '../../src/honeycomb/semantic.js';
import { parseRateLimit, retryAfterMs } from '../../src/honeycomb/api.js';

describe('derived-column expression tokenizer', () => {
  it('finds $name, $"quoted", $`raw` references and skips string literals', () => {
    expect(referencedColumns('IF(LTE($duration_ms, 100), "fast", "slow")')).toEqual(['duration_ms']);
    expect(referencedColumns('GT($"request latency (ms)", 1000)')).toEqual(['request latency (ms)']);
    expect(referencedColumns('REG_MATCH($`weird$name`, `^$not_a_ref`)')).toEqual(['weird$name']);
    expect(referencedColumns('CONCAT($http.route, " ($not_a_column)")')).toEqual(['http.route']);
    expect(referencedColumns('SUB($app.cart-total, $app.cart-discount)')).toEqual(['app.cart-total', 'app.cart-discount']);
    expect(referencedColumns('EQUALS($"say \\"hi\\"", "x")')).toEqual(['say "hi"']);
    expect(referencedColumns('AND($error, $error)')).toEqual(['error']);
    expect(referencedColumns('"unterminated $x')).toEqual([]);
  });

  it('infers a derived column type from its outer function', () => {
    expect(derivedType('LT($status, 500)')).toBe('boolean');
    expect(derivedType('DIV($bytes, 1024)')).toBe('float');
    expect(derivedType('INT($x)')).toBe('integer');
    expect(derivedType('IF($error, "bad", "good")')).toBe('string');
  });
});

describe('relative time wording, at each boundary', () => {
  const now = Date.parse('2026-01-10T12:00:00Z');
  const ago = (s: number) => new Date(now - s * 1000).toISOString();
  it.each([
    [0, 'just now'],
    [1, '1 second ago'],
    [10, '10 seconds ago'],
    [59, '59 seconds ago'],
    [60, '1 minute ago'],
    [119, '1 minute ago'],
    [120, '2 minutes ago'],
    [3599, '59 minutes ago'],
    [3600, '1 hour ago'],
    [86_399, '23 hours ago'],
    [86_400, '1 day ago'],
    [172_800, '2 days ago'],
    [60 * 86_400, '60 days ago'],
    [60 * 86_400 + 1, '>60 days ago'],
  ])('%i seconds -> %s', (s, text) => {
    expect(relativeTime(ago(s), now)).toBe(text);
  });

  it('handles missing and unreadable times, and flags staleness past 60 days', () => {
    expect(relativeTime(null, now)).toBeNull();
    expect(relativeTime('not a date', now)).toBeNull();
    expect(isStale(ago(60 * 86_400), now)).toBe(false);
    expect(isStale(ago(60 * 86_400 + 1), now)).toBe(true);
    expect(isStale(null, now)).toBe(true);
  });
});

describe('semantic groups and custom columns', () => {
  it('detects the specification groups and the four added ones', () => {
    const g = detectSemanticGroups(['trace.trace_id', 'HTTP.method', 'rpc.service', 'messaging.system', 'net.peer.name', 'http.server.duration.p99', 'body']);
    expect(g).toMatchObject({ has_otel_traces: true, has_http: true, has_rpc: true, has_messaging: true, has_net: true, has_histograms: true, has_logs: true, has_db: false, has_faas: false, has_k8s: false });
    expect(detectSemanticGroups(['faas.trigger']).has_faas).toBe(true);
  });

  it('keeps only columns outside the conventions, at most 20', () => {
    expect(customColumns(['http.method', 'user.plan_tier', 'duration_ms', 'db.statement.p99', 'checkout.cart_value', 'host.name'])).toEqual(['user.plan_tier', 'checkout.cart_value', 'host.name']);
    expect(customColumns(Array.from({ length: 30 }, (_, i) => `app${i}`))).toHaveLength(20);
  });
});

describe('rate-limit headers', () => {
  const now = Date.parse('2026-01-10T12:00:00Z');
  it('reads Retry-After as delta-seconds, HTTP-date and ISO timestamp', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Sat, 10 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('2026-01-10T12:00:05Z', now)).toBe(5000);
    expect(retryAfterMs('2026-01-10T11:00:00Z', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('reads RateLimit: limit, remaining, reset', () => {
    expect(parseRateLimit('limit=100, remaining=0, reset=42')).toEqual({ limit: 100, remaining: 0, resetSec: 42 });
    expect(parseRateLimit('garbage')).toBeNull();
  });
});
