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

/** nsToIso's inverse, for instants this code wrote (user text goes through parseInstant). */
export function isoToNs(iso: string): Nanos {
  return BigInt(Date.parse(iso)) * 1_000_000n;
}

export const INSTANT_HINT = 'Use ISO-8601 (2025-12-02T10:30:00Z), epoch seconds (10 digits) or milliseconds (13 digits), or now-1h.';

/**
 * Accepts ISO-8601, `now` or `now-<duration>`, and epoch seconds or milliseconds told apart by their
 * digit count (10 and 13 digits cover 2001-2286); any other digit count is refused as ambiguous.
 */
export function parseInstant(text: string, now: Nanos = nowNs()): Nanos {
  const trimmed = text.trim();
  const rel = /^now(?:\s*-\s*(.+))?$/i.exec(trimmed);
  if (rel) return rel[1] === undefined ? now : now - parseDuration(rel[1]);
  if (/^\d+$/.test(trimmed)) {
    if (trimmed.length === 10) return BigInt(trimmed) * 1_000_000_000n;
    if (trimmed.length === 13) return BigInt(trimmed) * 1_000_000n;
    throw new CoralError(`Ambiguous time "${text}": ${trimmed.length} digits are neither epoch seconds (10) nor milliseconds (13).`, INSTANT_HINT);
  }
  // Only ISO-8601-shaped text: Date.parse also guesses at forms like "12/2".
  const ms = /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(ms)) throw new CoralError(`Invalid time "${text}".`, INSTANT_HINT);
  return BigInt(ms) * 1_000_000n;
}

/** The window `[now - since, now]`. */
export function lastWindow(since: string | Nanos, now: Nanos = nowNs()): TimeRange {
  const span = typeof since === 'string' ? parseDuration(since) : since;
  return { fromNs: now - span, toNs: now };
}
