/** Where the scale benches keep their built colonies (BENCH_SCALE_DIR, default /tmp), shared by every bench that reads them. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type Backend = 'duckdb' | 'clickhouse';

const DIR = process.env.BENCH_SCALE_DIR ?? '/tmp';
process.env.CORAL_CHDB_PATH ??= resolve(import.meta.dirname, '../.cache/chdb/node_modules');
export const HAVE_CHDB = existsSync(join(process.env.CORAL_CHDB_PATH, 'chdb'));

export const duckPath = (n: number) => join(DIR, `coral-scale-${n}.duckdb`);
export const chDir = (n: number) => join(DIR, `coral-scale-${n}-chdb`);
/** Written once a build has finished: a build cut short is built again. */
export const doneMark = (b: Backend, n: number) => `${b === 'duckdb' ? duckPath(n) : chDir(n)}.done.json`;
export const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);
