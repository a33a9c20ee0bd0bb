import { CoralError } from './errors.js';
import { formatMs } from './format.js';

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

export const INSTANT_HINT = 'Use ISO-8601 (2025-12-02T10:30:00Z; no offset means UTC), a UTC clock time (13:05, today), epoch seconds (10 digits) or milliseconds (13 digits), or now-1h.';

const DAY_NS = 86_400_000_000_000n;

/**
 * Accepts ISO-8601 (UTC without an offset), a clock time `13:05[:30]` (UTC like every time the CLI
 * prints: today's, or yesterday's when today's is still to come), `now` or `now-<duration>`, and
 * epoch seconds or milliseconds told apart by their digit count (10 and 13 digits cover 2001-2286);
 * any other digit count is refused as ambiguous.
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
  if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(trimmed)) {
    const today = parseIso8601(`${nsToIso(now).slice(0, 10)}T${/^\d:/.test(trimmed) ? '0' : ''}${trimmed}`);
    if (today === undefined) throw new CoralError(`Invalid time "${text}".`, INSTANT_HINT);
    return today > now ? today - DAY_NS : today;
  }
  const ns = parseIso8601(trimmed);
  if (ns === undefined) throw new CoralError(`Invalid time "${text}".`, INSTANT_HINT);
  return ns;
}

/** The window `[now - since, now]`. */
export function lastWindow(since: string | Nanos, now: Nanos = nowNs()): TimeRange {
  const span = typeof since === 'string' ? parseDuration(since) : since;
  return { fromNs: now - span, toNs: now };
}

/** What an absolute window bound may be written as, for errors and tool descriptions. */
export const ISO_HINT = 'ISO 8601: 2026-11-27T13:05:00Z, 2026-11-27T13:05:00+02:00, 2026-11-27T13:05 (UTC) or 2026-11-27 (UTC midnight)';

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Strict ISO 8601 (what tools accept as start/end); undefined when `text` is not one. Without an
 * offset the time is UTC, never the host's zone, so the same call means the same window anywhere.
 */
export function parseIso8601(text: string): Nanos | undefined {
  const m = ISO_RE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  // Date.parse rolls 2026-02-30 over to March; a date that does not exist is refused instead.
  if (Number.isNaN(ms) || new Date(Date.parse(`${y}-${mo}-${d}T00:00:00Z`)).getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const nanos = frac ? BigInt(frac.slice(1).padEnd(9, '0')) : 0n;
  return BigInt(ms) * 1_000_000n + nanos;
}

const SPAN_UNITS: [bigint, string][] = [[86_400n, 'd'], [3_600n, 'h'], [60n, 'min'], [1n, 's']];

/** A window's length for people: "30 min", "2 h 30 min", "1 d 6 h", "45 s" (the two largest units). */
export function formatSpan(ns: Nanos): string {
  let secs = (ns + 500_000_000n) / 1_000_000_000n;
  if (secs <= 0n) return formatMs(nsToMs(ns));
  const parts: string[] = [];
  for (const [size, unit] of SPAN_UNITS) {
    if (secs >= size && parts.length < 2) {
      parts.push(`${secs / size} ${unit}`);
      secs %= size;
    } else if (parts.length > 0) break;
  }
  return parts.join(' ');
}

/**
 * An absolute window as headings state it, in UTC like every clock time the CLI prints:
 * "13:05-13:35 UTC (30 min)" today, "2026-11-26 13:05-13:35 UTC (30 min)" another day, and both
 * dates when it crosses midnight. Seconds show only when a bound has them.
 */
export function formatWindow(range: TimeRange, now: Nanos = nowNs()): string {
  const from = nsToIso(range.fromNs);
  const to = nsToIso(range.toNs);
  const withSeconds = from.slice(17, 19) !== '00' || to.slice(17, 19) !== '00';
  const clock = (iso: string) => iso.slice(11, withSeconds ? 19 : 16);
  const today = nsToIso(now).slice(0, 10);
  const [fromDay, toDay] = [from.slice(0, 10), to.slice(0, 10)];
  const bounds = fromDay !== toDay
    ? `${fromDay} ${clock(from)} - ${toDay} ${clock(to)}`
    : `${fromDay === today ? '' : `${fromDay} `}${clock(from)}-${clock(to)}`;
  return `${bounds} UTC (${formatSpan(range.toNs - range.fromNs)})`;
}
