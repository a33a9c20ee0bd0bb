import type { ScenarioMeta } from './scenario-meta.js';

/**
 * A console's first look while a demo loads newest first is worked out from this many of its newest
 * minutes (the summary: their second half against their first); the load waits there for it.
 */
export const FIRST_LOOK_MINUTES = 10;

/** The exports a newest-first load stores before it holds for the first look (0: after its first write). */
export function holdAfterExports(meta: ScenarioMeta, minutes: number | undefined): number {
  if (!minutes || meta.durationSec <= 0) return 0;
  return Math.ceil((meta.counts.exports * minutes * 60) / meta.durationSec);
}
