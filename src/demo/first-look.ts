import type { LoadOptions } from './load-types.js';
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

export interface FirstLookHold {
  /** The hold comes after the first write (nothing to decode ahead of it). */
  atFirstWrite: boolean;
  /** The promise to wait on at the first write past the first look's minutes; undefined at every other write. */
  due(exportsDone: number): Promise<unknown> | undefined;
}

/** The one wait a load owes the first look (holdAfterFirst, newest first only), on either thread. */
export function firstLookHold(meta: ScenarioMeta, opts: LoadOptions): FirstLookHold {
  let hold = opts.newestFirst ? opts.holdAfterFirst : undefined;
  const at = holdAfterExports(meta, opts.holdAfterMinutes);
  return {
    atFirstWrite: hold !== undefined && at === 0,
    due(exportsDone) {
      if (hold === undefined || exportsDone < at) return undefined;
      const wait = hold;
      hold = undefined;
      return wait;
    },
  };
}
