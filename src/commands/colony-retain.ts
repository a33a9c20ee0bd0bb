import { CoralError } from '../core/errors.js';
import { DURATION_HINT, type Nanos, parseDuration } from '../core/time.js';
import type { Colony } from '../colony/store/colony.js';
import { type Retention, startRetention } from '../colony/store/retention-loop.js';

/** A retention shorter than this would drop the summary's own windows (30 m and the one before). */
const MIN_RETAIN_NS = 3_600_000_000_000n;

/** `--retain DURATION` of `colony serve`, checked before anything starts; null without the flag. */
export function parseRetain(retain: string | undefined): Nanos | null {
  if (retain === undefined) return null;
  const retainNs = parseDuration(retain);
  if (retainNs < MIN_RETAIN_NS) throw new CoralError(`--retain ${retain} is shorter than an hour.`, `The tools read the last hour. ${DURATION_HINT}`);
  return retainNs;
}

/**
 * The retention loop over the store (every backend drops old data: DuckDB by rows, ClickHouse by
 * partitions). Its first pass starts at once: a colony served again after a long stop drops its
 * backlog now, not a minute later.
 */
export function startServeRetention(store: Colony, retainNs: Nanos | null): Retention | null {
  const drop = store.dropBefore?.bind(store);
  if (retainNs === null || !drop) return null;
  const retention = startRetention({ dropBefore: drop }, { retainNs });
  // A failed pass is tried again at the next tick, as the loop's own are.
  retention.pass().catch(() => undefined);
  return retention;
}
