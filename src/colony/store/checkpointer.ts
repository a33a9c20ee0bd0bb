import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';

/** How often the log's size is looked at (one stat call). */
const EVERY_MS = 100;
/**
 * A plain CHECKPOINT is refused while another write transaction is open, which under steady ingest
 * is often: after this many refusals in a row, FORCE CHECKPOINT waits for the lock instead (new
 * commits then wait for it, as they would for DuckDB's own).
 */
export const FORCE_AFTER_REFUSALS = 20;

export type CheckpointStep = 'wait' | 'checkpoint' | 'force';

/** What the checkpointer does at a look: nothing below the limit, else checkpoint (forced after many refusals). */
export function checkpointStep(walBytes: number, limitBytes: number, refusals: number): CheckpointStep {
  if (walBytes < limitBytes) return 'wait';
  return refusals >= FORCE_AFTER_REFUSALS ? 'force' : 'checkpoint';
}

/**
 * Checkpoints a colony file from a connection of its own once its write-ahead log passes a size.
 * DuckDB's own checkpoint runs inside the commit that crossed the limit, and with its vacuum (merging
 * partly filled row groups) it held every commit ~0.9 s at 10M spans, whatever the limit; this one
 * runs beside the ingest commits, which DuckDB lets append meanwhile (issue 33).
 */
export class Checkpointer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private refusals = 0;
  /** Checkpoints done. */
  done = 0;

  constructor(
    private readonly conn: DuckDBConnection,
    private readonly walPath: string,
    private readonly limitBytes: number,
    private readonly everyMs = EVERY_MS,
    /** Takes a failure that is not a refusal (the disk full, the instance invalidated): true when it was one. */
    private readonly onFault: (err: unknown) => boolean = () => false,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.look(), this.everyMs);
    this.timer.unref();
  }

  /** Stops looking (a checkpoint in progress ends by itself); `start` looks again. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops looking and closes its connection once a checkpoint in progress has ended. */
  async close(): Promise<void> {
    this.stop();
    await this.running;
    this.conn.closeSync();
  }

  /** One look at the log; resolves when what it started has ended. */
  look(): Promise<void> {
    if (this.running) return this.running;
    const step = checkpointStep(walBytes(this.walPath), this.limitBytes, this.refusals);
    if (step === 'wait') return Promise.resolve();
    this.running = this.conn.run(step === 'force' ? 'FORCE CHECKPOINT' : 'CHECKPOINT').then(
      () => {
        this.refusals = 0;
        this.done++;
      },
      // Refused beside another write transaction: tried again at the next look. A full disk is no
      // refusal: counted as one, it would make the first checkpoint after space frees a FORCE.
      (err: unknown) => {
        if (!this.onFault(err)) this.refusals++;
      },
    ).finally(() => {
      this.running = null;
    });
    return this.running;
  }
}

function walBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
