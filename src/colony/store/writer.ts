import type { Database } from './db.js';
import { APPENDED_TABLES } from './schema.js';
import { type IngestBatch, emptyBatch } from './rows.js';

/** Rows waiting beyond this many make `write` refuse with `StoreBusyError` (the receiver answers 503). */
export const DEFAULT_MAX_PENDING_ROWS = 500_000;
/** One group commit takes at most about this many rows, to bound a transaction's memory. */
const MAX_GROUP_ROWS = 100_000;

export class StoreBusyError extends Error {
  override name = 'StoreBusyError';
}

export function batchSize(b: IngestBatch): number {
  return b.spans.length + b.numberPoints.length + b.histogramPoints.length + b.logs.length + b.events.length;
}

/** Keeps the service registry's first/last seen and sources from what each table just received. */
const SERVICE_UPSERTS: [string, string, string][] = [
  ['otel_traces', 'start_ns', 'end_ns'],
  ['otel_metrics_number', 'time_ns', 'time_ns'],
  ['otel_metrics_histogram', 'time_ns', 'time_ns'],
  ['otel_logs', 'time_ns', 'time_ns'],
];

interface Pending {
  batch: IngestBatch;
  size: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: concurrent writers are coalesced into one transaction, so that many small OTLP
 * exports cost one round of DuckDB statements instead of one each. `write` resolves once the rows
 * are committed; a failed transaction rejects every batch in it and stores none of them.
 */
export class StoreWriter {
  private queue: Pending[] = [];
  private pendingRows = 0;
  private running: Promise<void> | null = null;
  private stagesReady: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly maxPendingRows = DEFAULT_MAX_PENDING_ROWS,
  ) {}

  write(batch: IngestBatch): Promise<void> {
    const size = batchSize(batch);
    if (size === 0) return Promise.resolve();
    if (this.pendingRows > 0 && this.pendingRows + size > this.maxPendingRows) {
      return Promise.reject(new StoreBusyError(`ingest queue full (${this.pendingRows} rows waiting)`));
    }
    this.pendingRows += size;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ batch, size, resolve, reject });
      this.running ??= this.drain().finally(() => {
        this.running = null;
      });
    });
  }

  /** Resolves when everything written so far is committed. */
  async flushed(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const group: Pending[] = [];
      let rows = 0;
      while (this.queue.length > 0 && (group.length === 0 || rows + this.queue[0].size <= MAX_GROUP_ROWS)) {
        const p = this.queue.shift() as Pending;
        group.push(p);
        rows += p.size;
      }
      const merged = emptyBatch();
      for (const p of group) {
        for (const key of Object.keys(merged) as (keyof IngestBatch)[]) {
          (merged[key] as unknown[]).push(...(p.batch[key] as unknown[]));
        }
      }
      try {
        await this.commit(merged);
        for (const p of group) p.resolve();
      } catch (err) {
        for (const p of group) p.reject(err);
      } finally {
        this.pendingRows -= rows;
      }
    }
  }

  private async ensureStages(): Promise<void> {
    this.stagesReady ??= (async () => {
      for (const { table } of APPENDED_TABLES) {
        await this.db.writer.run(`CREATE OR REPLACE TEMP TABLE stage_${table.name} AS SELECT * FROM ${table.name} LIMIT 0`);
      }
    })();
    return this.stagesReady;
  }

  private async commit(batch: IngestBatch): Promise<void> {
    await this.ensureStages();
    const conn = this.db.writer;
    const touched: string[] = [];
    try {
      // Appenders fill per-connection staging tables; the upsert below then moves them in one transaction.
      for (const { table, rows: rowsOf } of APPENDED_TABLES) {
        const rows = rowsOf(batch);
        if (rows.length === 0) continue;
        touched.push(table.name);
        const appender = await conn.createAppender(`stage_${table.name}`, 'main', 'temp');
        try {
          for (const row of rows) {
            for (const c of table.columns) c.append(appender, row);
            appender.endRow();
          }
          appender.flushSync();
        } finally {
          appender.closeSync();
        }
      }
      await conn.run('BEGIN TRANSACTION');
      try {
        for (const name of touched) {
          await conn.run(`INSERT OR REPLACE INTO ${name} SELECT * FROM stage_${name}`);
          const upsert = SERVICE_UPSERTS.find(([table]) => table === name);
          if (upsert) {
            const [, first, last] = upsert;
            await conn.run(`INSERT INTO coral_services
              SELECT service_name, source, min(${first}), max(${last}), any_value(resource_attributes)
              FROM stage_${name} GROUP BY service_name, source
              ON CONFLICT (service_name, source) DO UPDATE SET
                first_seen_ns = least(coral_services.first_seen_ns, excluded.first_seen_ns),
                last_seen_ns = greatest(coral_services.last_seen_ns, excluded.last_seen_ns),
                resource_attributes = excluded.resource_attributes`);
          }
        }
        await conn.run('COMMIT');
      } catch (err) {
        await conn.run('ROLLBACK');
        throw err;
      }
    } finally {
      for (const name of touched) await conn.run(`DELETE FROM stage_${name}`);
    }
  }
}
