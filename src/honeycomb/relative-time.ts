import { plural } from '../core/format.js';

/**
 * "10 seconds ago", "1 day ago", ">60 days ago": easier for a model (and a person) to reason about
 * than an ISO timestamp. Singular and plural right; older than 60 days is one bucket.
 */
const UNITS: [number, string][] = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

export const STALE_AFTER_SECONDS = 60 * 86_400;

export function relativeTime(iso: string | null | undefined, nowMs: number): string | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  const seconds = Math.floor((nowMs - at) / 1000);
  if (seconds < 1) return 'just now';
  if (seconds > STALE_AFTER_SECONDS) return '>60 days ago';
  for (const [size, unit] of UNITS) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${plural(n, unit)} ago`;
    }
  }
  return 'just now';
}

/** No data for more than 60 days (or never). */
export function isStale(iso: string | null | undefined, nowMs: number): boolean {
  if (!iso) return true;
  const at = Date.parse(iso);
  return Number.isNaN(at) || (nowMs - at) / 1000 > STALE_AFTER_SECONDS;
}
