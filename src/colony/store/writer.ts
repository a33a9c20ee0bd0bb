import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
import type { Database } from './db.js';
import { createStageSql, storedColumnNames } from './columns.js';
import { APPENDED_TABLES, SPANS } from './schema.js';
import { rollback, upsertStaged } from './upsert.js';
import { type SegmentsFor, RowSource } from './row-source.js';
import { PreparedStatements } from './prepared.js';
import { type IngestBatch, batchSize } from './rows.js';
import { StoreBusyError } from './busy.js';
import { type ColumnarBatch, encodeBatch, mergeColumnar } from './columnar-batch.js';
import { ServiceRegistry } from './service-registry.js';
import { spanKeyWordsSql } from './span-keys.js';
import { RecentSpanKeys } from './span-key-window.js';
import { openKeyFloor } from './span-key-floor.js';

/** Rows waiting beyond this many make `write` refuse with `StoreBusyError` (the receiver answers 503). */
export const DEFAULT_MAX_PENDING_ROWS = 500_000;
/** One group commit takes at most about this many rows, to bound a transaction's memory. */
const MAX_GROUP_ROWS = 100_000;
/**
 * A second lane starts a commit beside the one in progress only for at least this many queued rows.
 * DuckDB's CPU per row falls steeply with the size of a commit (a 512-span export alone: ~11 us per
 * span; 4096 spans together: ~4.4, measured, issue 16): smaller batches wait for the commit in
 * progress and go together in the next one.
 */
export const MIN_PARALLEL_GROUP_ROWS = 4096;

/**
 * A commit of fewer rows waits for batches still being decoded (at most GROUP_WAIT_MS): with a
 * decode worker the batches reach the writer one by one, and committed as they came (~900 spans a
 * commit) they cost DuckDB ~7.9 us of CPU per span, against ~4.4 waited for (8 senders, measured,
 * issue 16). The wait ends as soon as the batches on their way have come.
 */
export const GROUP_MIN_ROWS = 2048;
/**
 * 10 ms was too short on a loaded machine, where decoding one export can take longer: DuckDB then
 * spent ~6.3 us per span, ~4.5 with 50 ms (protobuf and JSON, load ~5, measured, issue 16).
 */
const GROUP_WAIT_MS = 50;

interface Pending {
  /** When it was queued (performance.now()). */
  at: number;
  batch: ColumnarBatch;
  size: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** A writer connection and its staging tables (temp tables are per connection). */
interface Lane {
  conn: DuckDBConnection;
  stagesReady: Promise<void> | null;
  /** The Database's generation the connection belongs to (a reopened file has new ones). */
  generation: number;
}

/**
 * Group commit on two lanes: concurrent writers are coalesced into one transaction per group, and
 * both lanes' inserts run on DuckDB's threads, calling back to the JS thread only to copy columnar
 * segments into column vectors (see row-source.ts), so the JS thread serves the next exports
 * meanwhile. `write` resolves once the rows are committed; a failed transaction rejects every
 * batch in it and stores none of them.
 */
export class StoreWriter {
  private queue: Pending[] = [];
  /** Rows queued or being committed. */
  private pendingRows = 0;
  /** Rows queued, not yet taken by a commit. */
  private queuedRows = 0;
  /** The drain loop in progress, if any; cleared synchronously when the loop sees an empty queue. */
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Batches handed over still being decoded. */
  private coming = 0;
  private idle: Lane[] = [];
  private lanesOf = -1;
  private readonly inflight = new Set<Promise<void>>();
  private readonly registry: ServiceRegistry;
  private upsertChain: Promise<void> = Promise.resolve();
  private readonly source: RowSource;
  private readonly statements = new PreparedStatements();
  /** Recent span keys stored or being stored (span-key-window.ts); filled from the table by `loadSpanKeys` before the first commit. */
  private spanKeys = new RecentSpanKeys(null);
  private keysRead: Promise<void> | null = null;
  /** Fast-path inserts in flight: an upsert waits for those begun before it, as they may hold its keys. */
  private readonly appends = new Set<Promise<void>>();
  /** Spans the table gained through this writer: new spans, not re-sends of stored ones (serve's stop line). */
  spansStored = 0;

  constructor(
    private readonly db: Database,
    private readonly maxPendingRows = DEFAULT_MAX_PENDING_ROWS,
    private readonly groupWaitMs = GROUP_WAIT_MS,
  ) {
    // One statement at a time per lane.
    this.source = new RowSource(APPENDED_TABLES.map((t) => t.table), db.writers.length);
    this.refreshLanes();
    this.registry = new ServiceRegistry(db);
  }

  /** Lanes on the Database's current connections: new ones once it reopened its file (db.ts). */
  private refreshLanes(): void {
    if (this.lanesOf === this.db.generation) return;
    this.lanesOf = this.db.generation;
    for (const conn of this.db.writers) this.source.register(conn);
    this.idle = this.db.writers.map((conn) => ({ conn, stagesReady: null, generation: this.lanesOf }));
  }

  /**
   * Learns the keys of the recent spans already stored (span-key-window.ts), so that a re-send after
   * a restart is still an upsert. Read once, by the first commit, not at open: a colony opened only
   * to be queried (coral query, ask, the console) never needs them. Calling it earlier only starts
   * the read sooner.
   */
  loadSpanKeys(): Promise<void> {
    this.keysRead ??= this.readSpanKeys().catch((err: unknown) => {
      // A failed read fails the writes waiting on it; the next write reads again.
      this.keysRead = null;
      throw err;
    });
    return this.keysRead;
  }

  /** Span keys remembered now, and the start before which a stored span may be unknown (tests, benches). */
  spanKeysHeld(): { keys: number; floorNs: bigint | null } {
    return { keys: this.spanKeys.size, floorNs: this.spanKeys.floorNs };
  }

  private async readSpanKeys(): Promise<void> {
    // On the writer's own connection, not a read one: the first commit must not queue behind reads.
    const floor = await openKeyFloor(this.db.admin, SPANS.name);
    // Room for as many again before the filter has to grow.
    const keys = new RecentSpanKeys(floor?.floorNs ?? null, (floor?.keys ?? 0) * 2);
    if (floor) {
      const result = await this.db.admin.stream(spanKeyWordsSql(SPANS.name, `start_ns >= ${floor.floorNs}`));
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        // The UINTEGER vectors read in place (never NULL: the SQL says 0 for what it cannot read).
        const [hi, lo] = [0, 1].map((c) => uint32Vector(chunk, c));
        for (let i = 0; i < chunk.rowCount; i++) keys.addStored(hi[i], lo[i]);
      }
      keys.storedUpTo(floor.newestNs);
    }
    this.spanKeys = keys;
  }

  /** Rows made on this thread: encoded here, then stored as `writeColumnar` stores a decode worker's. */
  write(batch: IngestBatch): Promise<void> {
    if (batchSize(batch) === 0) return Promise.resolve();
    let columnar: ColumnarBatch;
    try {
      columnar = encodeBatch(batch);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.writeColumnar(columnar);
  }

  /**
   * A batch, or one still being decoded: while such batches are on their way, a commit with fewer
   * than GROUP_MIN_ROWS rows waits for them (at most `groupWaitMs`, GROUP_WAIT_MS by default).
   */
  writeColumnar(batch: ColumnarBatch | Promise<ColumnarBatch>): Promise<void> {
    if (!(batch instanceof Promise)) return this.enqueue(batch);
    this.coming++;
    return batch.then(
      (b) => {
        this.coming--;
        return this.enqueue(b);
      },
      (err: unknown) => {
        this.coming--;
        this.wake?.();
        throw err;
      },
    );
  }

  private enqueue(batch: ColumnarBatch): Promise<void> {
    const size = batch.rows;
    if (size === 0) {
      this.wake?.();
      return Promise.resolve();
    }
    const refused = this.db.refusal();
    if (refused) {
      this.wake?.();
      return Promise.reject(refused);
    }
    if (this.pendingRows > 0 && this.pendingRows + size > this.maxPendingRows) {
      this.wake?.();
      return Promise.reject(new StoreBusyError(`ingest queue full (${this.pendingRows} rows waiting)`));
    }
    this.pendingRows += size;
    this.queuedRows += size;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ batch, size, resolve, reject, at: performance.now() });
      this.wake?.();
      // Started from a microtask: drain() may finish synchronously (all lanes started, queue empty)
      // and clear `running`, which an assignment after its return would overwrite.
      this.running ??= Promise.resolve().then(() => this.drain());
    });
  }

  /** Resolves when everything written so far is committed, the service registry included. */
  async flushed(): Promise<void> {
    while (this.running || this.inflight.size > 0) await Promise.all([this.running, ...this.inflight]);
    await this.syncRegistry();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.queue.length === 0) {
        // Same synchronous step as the emptiness check, so no write can slip in between.
        this.running = null;
        return;
      }
      if (this.inflight.size === 0 && this.queuedRows < GROUP_MIN_ROWS && this.coming > 0) {
        const waited = performance.now() - this.queue[0].at;
        if (waited < this.groupWaitMs) {
          await new Promise<void>((r) => {
            this.wake = r;
            setTimeout(r, this.groupWaitMs - waited);
          });
          this.wake = null;
          continue;
        }
      }
      this.refreshLanes();
      const lane = this.inflight.size > 0 && this.queuedRows < MIN_PARALLEL_GROUP_ROWS ? undefined : this.idle.pop();
      if (!lane) {
        await Promise.race(this.inflight);
        continue;
      }
      const group: Pending[] = [];
      let rows = 0;
      while (this.queue.length > 0 && (group.length === 0 || rows + this.queue[0].size <= MAX_GROUP_ROWS)) {
        const p = this.queue.shift() as Pending;
        group.push(p);
        rows += p.size;
      }
      this.queuedRows -= rows;
      const done: Promise<void> = this.commitGroup(lane, group).finally(() => {
        this.pendingRows -= rows;
        // A lane of connections since replaced is dropped (db.ts reopen).
        if (lane.generation === this.db.generation) this.idle.push(lane);
        this.inflight.delete(done);
      });
      this.inflight.add(done);
    }
  }

  /**
   * One transaction for the group; should it fail, each batch is retried alone so that one sender's
   * batch can never fail the others it happened to be grouped with.
   */
  private async commitGroup(lane: Lane, group: Pending[]): Promise<void> {
    try {
      await this.commit(lane, mergeColumnar(group.map((p) => p.batch)));
      for (const p of group) p.resolve();
      return;
    } catch (err) {
      // The disk's fault is every batch's: none is tried alone (the lane may be gone too).
      const disk = (await this.db.noteFault(err)) || this.db.diskFull !== null;
      if (group.length === 1 || disk) {
        for (const p of group) p.reject(this.db.refusal() ?? err);
        return;
      }
    }
    for (const p of group) {
      try {
        await this.commit(lane, p.batch);
        p.resolve();
      } catch (err) {
        await this.db.noteFault(err);
        p.reject(this.db.refusal() ?? err);
      }
    }
  }

  private ensureStages(lane: Lane): Promise<void> {
    lane.stagesReady ??= (async () => {
      for (const { table } of APPENDED_TABLES) {
        await lane.conn.run(createStageSql(table, `stage_${table.name}`));
      }
    })();
    return lane.stagesReady;
  }

  /**
   * Fast path: insert straight into the tables inside one transaction, when no span key may have
   * been stored before (see span-keys.ts). A key that already exists in a table with a key index
   * (a retried export) aborts it; such batches are upserted through staging tables instead.
   * Either way the batch lands whole or not at all.
   */
  private async commit(lane: Lane, batch: ColumnarBatch): Promise<void> {
    // Queued before the disk filled: refused as a new export would be, without trying.
    const refused = this.db.refusal();
    if (refused) throw refused;
    await this.loadSpanKeys();
    // Decided and recorded synchronously, so that a later batch with one of these keys sees them.
    const maybeSeen = this.spanKeys.admitBatch(batch.spanKeys, batch.spanTimes);
    if (maybeSeen) {
      await this.upsertSerially(lane, batch, [...this.appends]);
    } else {
      const append = this.append(lane, batch);
      this.appends.add(append);
      const appended = await append.then(() => true, () => false).finally(() => this.appends.delete(append));
      if (appended) this.spansStored += spanRows(batch);
      else await this.upsertSerially(lane, batch, [...this.appends]);
    }
    this.registry.note(batch.sightings);
  }

  private async append(lane: Lane, batch: ColumnarBatch): Promise<void> {
    const conn = lane.conn;
    const parts = partsOf(batch);
    try {
      await this.source.serve(parts, async (from) => {
        const inserts = parts.map((p, i) => `INSERT INTO ${p.table.name} (${storedColumnNames(p.table)}) SELECT * FROM ${from[i]}`);
        // One table's rows: the statement is a transaction of its own.
        if (inserts.length === 1) return this.statements.run(conn, inserts[0]);
        await this.statements.run(conn, 'BEGIN TRANSACTION');
        for (const sql of inserts) await this.statements.run(conn, sql);
        await this.statements.run(conn, 'COMMIT');
      });
    } catch (err) {
      await rollback(conn);
      throw err;
    }
  }

  /**
   * Upserts run one at a time (two lanes upserting the same keys conflict in DuckDB), each after the
   * fast-path appends begun before it (`before`), which may hold its keys: the spans table has no
   * index to make a concurrent copy conflict. One that conflicts with the other lane's append in
   * flight is retried once that has settled: identical concurrent exports are upserts, never errors.
   */
  private upsertSerially(lane: Lane, batch: ColumnarBatch, before: Promise<void>[]): Promise<void> {
    const run = this.upsertChain.catch(() => undefined).then(async () => {
      await Promise.allSettled(before);
      for (let attempt = 1; ; attempt++) {
        try {
          await this.commitWithUpsert(lane, batch);
          return;
        } catch (err) {
          if (attempt >= MAX_CONFLICT_RETRIES || !isConflict(err)) throw err;
          await new Promise((r) => setTimeout(r, 2 * attempt));
        }
      }
    });
    this.upsertChain = run;
    return run;
  }

  private async commitWithUpsert(lane: Lane, batch: ColumnarBatch): Promise<void> {
    await this.ensureStages(lane);
    const conn = lane.conn;
    const parts = partsOf(batch);
    try {
      await this.source.serve(parts, async (from) => {
        for (const [i, p] of parts.entries()) await this.statements.run(conn, `INSERT INTO stage_${p.table.name} SELECT * FROM ${from[i]}`);
      });
      this.spansStored += await upsertStaged(conn, parts.map((p) => p.table), spanRows(batch));
    } finally {
      for (const { table } of parts) await conn.run(`DELETE FROM stage_${table.name}`);
    }
  }

  /**
   * Writes pending registry updates; resolves when they (and any earlier ones) are committed. While
   * the disk is full they wait for room, and the reads that asked answer from the registry as stored.
   */
  async syncRegistry(): Promise<void> {
    if (this.db.diskFull) return;
    try {
      await this.registry.sync();
    } catch (err) {
      if (!(await this.db.noteFault(err))) throw err;
    }
  }
}

const MAX_CONFLICT_RETRIES = 50;

function uint32Vector(chunk: DuckDBDataChunk, column: number): Uint32Array {
  const data = duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk.chunk, column), chunk.rowCount * 4);
  return data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, chunk.rowCount) : new Uint32Array(data.slice().buffer);
}

function spanRows(batch: ColumnarBatch): number {
  return batch.segments.reduce((n, s) => n + (s.table === SPANS.name ? s.rows : 0), 0);
}

/** The batch's segments per table, for the tables it has rows for. */
function partsOf(batch: ColumnarBatch): SegmentsFor[] {
  return APPENDED_TABLES.map(({ table }) => ({ table, segments: batch.segments.filter((s) => s.table === table.name) })).filter((p) => p.segments.length > 0);
}

/** DuckDB's optimistic concurrency: another transaction touched the same rows; retrying succeeds. */
function isConflict(err: unknown): boolean {
  return /conflict|transaction is aborted/i.test((err as Error)?.message ?? '');
}
