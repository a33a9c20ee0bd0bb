import type { Nanos } from '../../core/time.js';
import { nowNs } from '../../core/time.js';

/** A colony that can drop data older than an instant, a bounded step at a time (issue 33). */
export interface Retainable {
  /** Drops a bounded step of what is older than `cutoffNs`; returns how many rows went (0: nothing left to drop). */
  dropBefore(cutoffNs: Nanos): Promise<number>;
}

/** How often a pass starts while `colony serve` runs. */
const EVERY_MS = 60_000;

export interface RetentionOptions {
  retainNs: Nanos;
  /** The clock the cutoff is read from (tests inject one). */
  now?: () => Nanos;
  everyMs?: number;
}

export interface Retention {
  /** One pass: steps until nothing older than the retention is left; resolves to the rows dropped. */
  pass(): Promise<number>;
  /** Stops the timer and ends a pass in progress after its current step. */
  stop(): Promise<void>;
}

/**
 * Keeps a colony to its retention: every `everyMs`, a pass of bounded steps, each one yielding to the
 * event loop before the next so ingest commits between them (a step's DELETE is the only pause it sees).
 */
export function startRetention(store: Retainable, opts: RetentionOptions): Retention {
  const now = opts.now ?? nowNs;
  let running: Promise<number> | null = null;
  // A pass over a long backlog is hundreds of steps: stopping ends it after the step in progress.
  let stopping = false;
  const pass = (): Promise<number> => {
    running ??= (async () => {
      let total = 0;
      for (;;) {
        const n = await store.dropBefore(now() - opts.retainNs);
        total += n;
        if (n === 0 || stopping) return total;
        await new Promise((r) => setImmediate(r));
      }
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => {
    // A failed pass is tried again at the next tick; the colony keeps serving meanwhile.
    pass().catch(() => undefined);
  }, opts.everyMs ?? EVERY_MS);
  timer.unref();
  return {
    pass,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
