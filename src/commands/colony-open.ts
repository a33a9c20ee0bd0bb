import { CoralError } from '../core/errors.js';
import { parseIntOption, parseMemoryLimit } from '../core/args.js';
import { defaultColonyDbPath } from '../core/paths.js';
import { ColonyStore } from '../colony/store/store.js';
import type { Colony } from '../colony/store/colony.js';
import { configuredClickHouseUrl, openClickHouseColony } from '../agent/clickhouse.js';

export interface StoreOptions {
  db?: string;
  /** A ClickHouse colony instead of the DuckDB file (config clickhouse.url when neither is named). */
  clickhouse?: string;
  threads?: string;
  memoryLimit?: string;
}

/**
 * Opens the colony named by --clickhouse, else --db (default ~/.coral/colony.duckdb) with the CLI's
 * resource limits. `create`: the command writes (serve, load): a ClickHouse colony gets the
 * exporter's tables when missing; without it a DuckDB file is only read (db.ts `readOnly`).
 * What the file's open found (a crash's log, one cut short) is said on stderr.
 */
export async function openColonyFromOptions(opts: StoreOptions, o: { create?: boolean; checkpointThreshold?: string; checkpointBeside?: boolean; onNotice?: (line: string) => void } = {}): Promise<Colony> {
  if (opts.clickhouse !== undefined && opts.db !== undefined) {
    throw new CoralError('--clickhouse and --db name two different colonies.', 'Pass one of them.');
  }
  const clickhouse = opts.clickhouse ?? (opts.db === undefined ? configuredClickHouseUrl() : undefined);
  if (clickhouse !== undefined) return openClickHouseColony(clickhouse, { create: o.create ?? false });
  const store = await ColonyStore.open({
    path: opts.db ?? defaultColonyDbPath(),
    readOnly: o.create !== true,
    threads: opts.threads === undefined ? undefined : parseIntOption('--threads', opts.threads, 1, 256),
    memoryLimit: opts.memoryLimit === undefined ? undefined : parseMemoryLimit(opts.memoryLimit),
    checkpointThreshold: o.checkpointThreshold,
    checkpointBeside: o.checkpointBeside,
    onNotice: o.onNotice,
  });
  for (const note of store.notes) process.stderr.write(`coral: ${note}\n`);
  return store;
}
