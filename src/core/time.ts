import { CoralError } from './errors.js';

/** Nanoseconds are bigint throughout: epoch nanoseconds exceed 2^53. */
export type Nanos = bigint;

export interface TimeRange {
  fromNs: Nanos;
  toNs: Nanos;
}

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
  w: 604_800_000_000_000n,
};

const DURATION_RE = /^(\d+(?:\.\d+)?)(ns|us|ms|s|m|h|d|w)$/;
export const DURATION_HINT = 'Use a number and a unit: 500ms, 90s, 30m, 1h, 24h, 7d, 2w.';

/** Parses `90s`, `30m`, `1.5h`, `500ms`... into nanoseconds. */
export function parseDuration(text: string): Nanos {
  const m = DURATION_RE.exec(text.trim().toLowerCase());
  if (!m) throw new CoralError(`Invalid duration "${text}".`, DURATION_HINT);
  const [whole, frac = ''] = m[1].split('.');
  const unit = UNIT_NS[m[2]];
  // Exact decimal arithmetic: "1.5h" must not go through a float.
  const scale = 10n ** BigInt(frac.length);
  return (BigInt(whole + frac) * unit) / scale;
}

export function nowNs(): Nanos {
  return BigInt(Date.now()) * 1_000_000n;
}

export function nsToMs(ns: Nanos): number {
  return Number(ns / 1000n) / 1000;
}

export function msToNs(ms: number): Nanos {
  return BigInt(Math.round(ms * 1000)) * 1000n;
}

export function nsToIso(ns: Nanos): string {
  return new Date(Number(ns / 1_000_000n)).toISOString();
}

/** Accepts an ISO-8601 date-time or epoch milliseconds. */
export function parseInstant(text: string): Nanos {
  const trimmed = text.trim();
  if (/^\d{10,16}$/.test(trimmed)) return BigInt(trimmed) * 1_000_000n;
  const ms = Date.parse(trimmed);
  if (Number.isNaN(ms)) {
    throw new CoralError(`Invalid time "${text}".`, 'Use ISO-8601 (2025-12-02T10:30:00Z) or epoch milliseconds.');
  }
  return BigInt(ms) * 1_000_000n;
}

/** The window `[now - since, now]`. */
export function lastWindow(since: string | Nanos, now: Nanos = nowNs()): TimeRange {
  const span = typeof since === 'string' ? parseDuration(since) : since;
  return { fromNs: now - span, toNs: now };
}
