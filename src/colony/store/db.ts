import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { CoralError } from '../../core/errors.js';
import { sizeBytes } from '../../core/args.js';
import { makePrivate, prepareForeignPrivateFile } from '../../core/private-files.js';
import { formatCount } from '../../core/format.js';
import { Checkpointer } from './checkpointer.js';
import { type DiskFullState, DiskFullError, diskFault, diskFullWords } from './disk-fault.js';
import { DiskWatch } from './disk-watch.js';
import { APPENDED_TABLES, META_DDL, SCHEMA_VERSION, SERVICES_DDL } from './schema.js';
import { ISOLATED_SETTINGS, inspectOpenedFile, opensReadOnly } from './file-open.js';
import { damageError, keepDamagedCopy } from './damaged.js';
import { createTableSql } from './columns.js';
import { DEFAULT_MAX_RESULT_ROWS, DEFAULT_READ_TIMEOUT_MS, type ReadLimits, ReadPool } from './read-pool.js';

export interface OpenOptions {
  /** A file path, or ':memory:'. */
  path: string;
  /** DuckDB worker threads; DuckDB would otherwise take every core. */
  threads?: number;
  /** DuckDB memory cap, e.g. '2GB'; DuckDB would otherwise take 80% of RAM. */
  memoryLimit?: string;
  /**
   * For ':memory:', a colony kept small (the console's demo): its tables can be compressed as a
   * file's are (DuckDB's in-memory COMPRESS; ColonyStore.compact() compresses what was written, a demo
   * hour ~5 MB instead of ~60), and DuckDB hands freed memory back to the system after any task that
   * used more than a few MB rather than only past 128 MB.
   */
  compact?: boolean;
  /**
   * The write-ahead log size past which DuckDB checkpoints (CHECKPOINT_THRESHOLD by default):
   * `colony serve` asks for less, as the whole log is replayed when the file reopens after a crash.
   */
  checkpointThreshold?: string;
  /**
   * A file's checkpoints run beside the ingest commits, on a connection of their own (checkpointer.ts),
   * past checkpointThreshold (in MB here), and without DuckDB's vacuum: `colony serve`, whose exporters
   * must not wait for them.
   */
  checkpointBeside?: boolean;
  /** How often the checkpointer looks at the log, in ms (tests look themselves: `lookAtLog`). */
  checkpointLookMs?: number;
  /** Time and size limits of each read (read-pool.ts defaults). */
  readLimits?: Partial<ReadLimits>;
  /** How often a full disk is looked at again, in ms (disk-watch.ts; tests look themselves: `lookAtDisk`). */
  diskProbeMs?: number;
  /** Hears what the colony's operator should know as it happens (serve's log): the disk full, and back. */
  onNotice?: (line: string) => void;
  /**
   * Only read (queries, status, the console, `coral ask`, `coral mcp`): an existing file is opened
   * READ_ONLY (file-open.ts), never migrated, checkpointed or chmodded.
   */
  readOnly?: boolean;
}

/** The compressible in-memory catalog every connection of a compact colony uses. */
const COMPRESSED_CATALOG = 'colony';

/**
 * One: rows reach DuckDB through a table function that waits on the JS thread (row-source.ts), and
 * with a second DuckDB thread the query's own thread spins for tasks all that while: 2 threads cost
 * ~10 us more CPU per ingested span (of ~35) on two cores, and the read benches were no faster
 * with them on this shared machine (measured, issue 16). The other connections still run side by side.
 */
export const DEFAULT_THREADS = 1;
export const DEFAULT_MEMORY_LIMIT = '4GB';
/**
 * DuckDB checkpoints once its write-ahead log (for ':memory:', the log it would have written) passes
 * this size, not its default 16 MB: each checkpoint compresses again the table's last, partly filled
 * row group, and at 16 MB (~20,000 spans) that cost DuckDB ~13 us of CPU per ingested span instead
 * of ~10 for a file, and ~21 instead of ~16.5 in memory (512-span commits; measured, issue 16). The
 * price: up to this much log to replay when a colony file reopens after a crash, and in memory up
 * to this much data held uncompressed. A compact colony keeps DuckDB's default.
 */
export const CHECKPOINT_THRESHOLD = '256MB';
/**
 * `colony serve`'s log limit, in MB: a kill -9 leaves at most this much log, all replayed before
 * the colony listens again (~58 ms per MB measured on the loaded machine, issue 31). Its checkpoints
 * run beside the commits (checkpointer.ts), yet DuckDB still holds appends to a table for part of
 * one: at 32 MB a checkpoint took ~350 ms on a 10M-span file and held exports up to ~300 ms, at
 * 8 MB ~100 ms and held them up to ~170 ms (quiet machine, issue 33).
 */
export const SERVE_CHECKPOINT_THRESHOLD_MB = 8;

/** DuckDB's own checkpoints never come when the checkpointer makes them. */
const NEVER = '1000000GB';

/** The log limit (checkpointThreshold, as DuckDB writes sizes: '32MB', '1GB') in bytes (core/args.ts). */
export function logLimitBytes(size: string): number {
  const bytes = sizeBytes(size);
  if (bytes === null) throw new CoralError(`Cannot read the log size ${size}.`, 'Write it as a number and KB, MB or GB, e.g. 32MB.');
  return bytes;
}

export type Params = Record<string, DuckDBValue>;
export type Row = Record<string, unknown>;

/** Bulk-write connections: two, so that one appends while the other commits (see writer.ts). */
const WRITE_LANES = 2;
/**
 * Read connections, each running one query at a time (read-pool.ts): a tool's independent queries
 * run two side by side, and reads never take more than two of the four libuv pool threads that
 * DuckDB's statements run on, leaving two for the write lanes.
 */
const READERS = 2;

/** One DuckDB instance and the connections made on it: replaced whole when DuckDB invalidates it. */
interface Handle {
  instance: DuckDBInstance;
  writers: DuckDBConnection[];
  registry: DuckDBConnection;
  retention: DuckDBConnection;
  readers: DuckDBConnection[];
  reads: ReadPool;
  checkpointer: Checkpointer | null;
}

/**
 * A DuckDB database with the colony schema: connections for bulk writes, one for the service
 * registry (updated beside ingest, not inside its transactions), one for retention, and the reads'.
 *
 * A colony file whose disk fills stops taking writes (`diskFull`, disk-watch.ts) and takes them
 * again once there is room; should DuckDB have invalidated the instance meanwhile (a checkpoint
 * that hit the full disk), the file is opened again under the same object, its log replayed, and
 * reads and writes go to the new connections (`generation` says when they changed).
 */
export class Database {
  private reopening: Promise<void> | null = null;
  private gen = 0;
  private readonly disk: DiskWatch | null;

  private constructor(
    readonly path: string,
    private readonly opts: OpenOptions,
    private handle: Handle,
    /** Opened READ_ONLY: nothing can be written. */
    readonly readOnly: boolean,
    /** What a person should know about the file as it was found (file-open.ts). */
    readonly notes: readonly string[],
  ) {
    this.disk = path === ':memory:' ? null : new DiskWatch(path, (state, full) => this.diskChanged(state, full), opts.diskProbeMs);
  }

  /** Bulk-write connections (writer.ts): new ones after a reopen. */
  get writers(): DuckDBConnection[] {
    return this.handle.writers;
  }

  get registry(): DuckDBConnection {
    return this.handle.registry;
  }

  /** Retention's deletes: on a lane's connection they ran inside that lane's open transaction. */
  get retention(): DuckDBConnection {
    return this.handle.retention;
  }

  /** The connection for schema changes and maintenance. */
  get admin(): DuckDBConnection {
    return this.handle.writers[0];
  }

  /** Counts the times the connections were made again (an invalidated instance reopened). */
  get generation(): number {
    return this.gen;
  }

  /** Where the disk is full while writes are refused; null while they are taken. */
  get diskFull(): DiskFullState | null {
    return this.disk?.full ?? null;
  }

  /** The refusal for a write while the disk is full (null while writes are taken). */
  refusal(): DiskFullError | null {
    const full = this.diskFull;
    return full ? new DiskFullError(full) : null;
  }

  static async open(opts: OpenOptions): Promise<Database> {
    const file = opts.path !== ':memory:';
    const readOnly = file && opensReadOnly(opts.path, { write: opts.readOnly !== true });
    if (file && !readOnly) prepareForeignPrivateFile(opts.path);
    // What the instance is opened with, again at a reopen (a read-only open never checkpoints).
    const resolved: OpenOptions = { ...opts, readOnly, checkpointBeside: opts.checkpointBeside === true && !readOnly };
    let instance: DuckDBInstance;
    try {
      instance = await createInstance(resolved);
    } catch (err) {
      const msg = (err as Error).message;
      throw damageError(opts.path, msg, () => keepDamagedCopy(opts.path)) ?? new CoralError(`Cannot open the colony database ${opts.path}: ${msg}`, /lock/i.test(msg)
        ? 'Another coral process has this colony open; stop it or pass a different --db FILE.'
        : 'Check that the path is a DuckDB file you can write, or pass --db :memory:.');
    }
    const notes = file ? await inspectOpenedFile(instance, opts.path, { readOnly }) : [];
    // Files an older coral made 0644 (the umask above covers what DuckDB creates from now on).
    if (file && !readOnly) for (const f of [opts.path, `${opts.path}.wal`]) makePrivate(f);
    const compressed = opts.compact === true && opts.path === ':memory:';
    if (compressed) {
      const setup = await instance.connect();
      await setup.run(`ATTACH ':memory:' AS ${COMPRESSED_CATALOG} (COMPRESS)`);
      setup.closeSync();
    }
    const db = new Database(opts.path, resolved, await connectAll(instance, resolved, (err) => db.noteFault(err)), readOnly, notes);
    if (!readOnly) await db.migrate();
    await db.checkSchemaVersion();
    // A log left by a crash was replayed just now and stays until the next checkpoint: folded into
    // the file at once, so that a second crash does not replay it again (nothing to do after a clean stop).
    if (file && !readOnly) await db.admin.run('CHECKPOINT');
    db.handle.checkpointer?.start();
    return db;
  }

  private async migrate(): Promise<void> {
    for (const { table } of APPENDED_TABLES) await this.admin.run(createTableSql(table));
    await this.admin.run(SERVICES_DDL);
    await this.admin.run(META_DDL);
    await this.admin.run(
      `INSERT INTO coral_meta VALUES ('schema_version', $v) ON CONFLICT DO NOTHING`,
      { v: String(SCHEMA_VERSION) },
    );
  }

  private async checkSchemaVersion(): Promise<void> {
    const rows = await this.query<{ value: string }>(`SELECT value FROM coral_meta WHERE key = 'schema_version'`);
    if (rows[0]?.value !== String(SCHEMA_VERSION)) {
      throw new CoralError(
        `The colony database ${this.path} has schema version ${rows[0]?.value}, this coral expects ${SCHEMA_VERSION}.`,
        'Open it with the coral version that wrote it, or start a new colony file with --db.',
      );
    }
  }

  /**
   * Runs a read query with bound parameters on the next free read connection (queued while both are
   * busy), within the read limits; BIGINT values stay JS bigint (cast in SQL where a number is meant).
   * A read that meets an invalidated instance is asked again of the reopened one.
   */
  async query<T = Row>(sql: string, params: Params = {}): Promise<T[]> {
    if (this.reopening) await this.reopening;
    const gen = this.gen;
    try {
      return await this.handle.reads.query<T>(sql, params);
    } catch (err) {
      // Reopened meanwhile (its old reads stopped), or now by this fault: asked again of the new handle.
      if (this.gen === gen && (!(await this.noteFault(err)) || this.gen === gen)) throw err;
      return this.handle.reads.query<T>(sql, params);
    }
  }

  /**
   * Reads a failure for what it says about the disk (disk-fault.ts): no room stops the writes until
   * there is; an invalidated instance is opened again. True when it was such a fault (then handled).
   */
  async noteFault(err: unknown): Promise<boolean> {
    const fault = this.disk ? diskFault(err) : null;
    if (!fault) return false;
    if (fault.full) this.disk?.enter();
    if (fault.invalidated) await this.reopen();
    return true;
  }

  private diskChanged(state: DiskFullState, full: boolean): void {
    if (full) {
      this.handle.checkpointer?.stop();
      this.opts.onNotice?.(diskFullWords(state));
      return;
    }
    this.handle.checkpointer?.start();
    this.opts.onNotice?.(`disk space back at ${state.dir} (${formatCount(state.freeBytes)} bytes free); exports are taken again`);
  }

  /**
   * The file opened again beside the invalidated instance (which DuckDB lets go on existing, and
   * which writes nothing more): the log is replayed, nothing committed is lost. The old instance is
   * closed now; its connections, some perhaps finishing a statement that fails, are dropped (a
   * connection closed under a running statement leaves that statement's promise unsettled for good).
   */
  private reopen(): Promise<void> {
    this.reopening ??= (async () => {
      const old = this.handle;
      old.checkpointer?.stop();
      this.handle = await connectAll(await createInstance(this.opts), this.opts, (err) => this.noteFault(err));
      this.gen++;
      // Its reads stopped first (retried on the new handle): a connection closed under a statement can abort the process.
      await old.reads.close();
      old.instance.closeSync();
      if (!this.diskFull) this.handle.checkpointer?.start();
      this.opts.onNotice?.(`the colony file ${this.path} was opened again after DuckDB invalidated it; its log was replayed, nothing committed is lost`);
    })().finally(() => {
      this.reopening = null;
    });
    return this.reopening;
  }

  /** Checkpoints the checkpointer has made (none without one). */
  get checkpoints(): number {
    return this.handle.checkpointer?.done ?? 0;
  }

  /** The checkpointer's look at the log now; resolves when a checkpoint it started has ended. */
  lookAtLog(): Promise<void> {
    return this.handle.checkpointer?.look() ?? Promise.resolve();
  }

  /** The disk watch's look now, while the disk is full (tests look themselves); true once writes may resume. */
  lookAtDisk(): boolean {
    return this.disk?.look() ?? true;
  }

  /** Background work (the checkpointer, the disk watch) stopped, then every connection closed. */
  async close(): Promise<void> {
    this.disk?.stop();
    await this.reopening?.catch(() => undefined);
    const h = this.handle;
    await h.checkpointer?.close();
    await h.reads.close();
    for (const w of h.writers) w.closeSync();
    h.registry.closeSync();
    h.retention.closeSync();
    for (const r of h.readers) r.closeSync();
    h.instance.closeSync();
  }
}

/** The DuckDB instance for a colony, with its settings (the same at every open of the file). */
function createInstance(opts: OpenOptions): Promise<DuckDBInstance> {
  const beside = opts.checkpointBeside === true && opts.path !== ':memory:';
  return DuckDBInstance.create(opts.path, {
    ...ISOLATED_SETTINGS,
    ...(opts.readOnly ? { access_mode: 'READ_ONLY' } : {}),
    threads: String(opts.threads ?? DEFAULT_THREADS),
    memory_limit: opts.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
    ...(opts.compact ? { allocator_flush_threshold: '4MB' } : {}),
    ...(opts.compact ? {} : { checkpoint_threshold: beside ? NEVER : opts.checkpointThreshold ?? CHECKPOINT_THRESHOLD }),
    // Vacuum merges partly filled row groups with every commit held; emptied ones are freed without it.
    ...(beside ? { max_vacuum_tasks: '0' } : {}),
  });
}

/** Every connection a colony uses, on `instance`; `onFault` hears the checkpointer's failures (Database.noteFault). */
async function connectAll(instance: DuckDBInstance, opts: OpenOptions, onFault: (err: unknown) => Promise<boolean>): Promise<Handle> {
  const compressed = opts.compact === true && opts.path === ':memory:';
  // DuckDB's default in-memory catalog cannot be compressed: an attached one can, made each connection's default.
  const connect = async () => {
    const conn = await instance.connect();
    if (compressed) await conn.run(`USE ${COMPRESSED_CATALOG}`);
    return conn;
  };
  const writers: DuckDBConnection[] = [];
  for (let i = 0; i < WRITE_LANES; i++) writers.push(await connect());
  const readers: DuckDBConnection[] = [];
  for (let i = 0; i < READERS; i++) readers.push(await connect());
  const limits = { timeoutMs: DEFAULT_READ_TIMEOUT_MS, maxRows: DEFAULT_MAX_RESULT_ROWS, ...opts.readLimits };
  const beside = opts.checkpointBeside === true && opts.path !== ':memory:';
  const checkpointer = beside
    ? new Checkpointer(await connect(), `${opts.path}.wal`, logLimitBytes(opts.checkpointThreshold ?? CHECKPOINT_THRESHOLD), opts.checkpointLookMs, (err) => {
        if (!diskFault(err)) return false;
        void onFault(err);
        return true;
      })
    : null;
  return { instance, writers, registry: await connect(), retention: await connect(), readers, reads: new ReadPool(readers, limits), checkpointer };
}
