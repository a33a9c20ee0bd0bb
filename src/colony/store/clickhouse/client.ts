import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../../../core/package-root.js';
import { CoralError } from '../../../core/errors.js';
import { usePrivateUmask } from '../../../core/private-files.js';
import type { ClickHouseTarget } from './url.js';
import { Pool } from './pool.js';

/** The few operations the ClickHouse colony needs, over either client. Rows travel as JSONEachRow. */
export interface ChClient {
  query<T>(sql: string): Promise<T[]>;
  command(sql: string): Promise<void>;
  /**
   * Inserts rows given as objects keyed by column name. The insert's de-duplication token is a hash of
   * the rows: a table that remembers recent inserts (coral's own, Replicated ones) drops a re-sent one.
   */
  insert(table: string, rows: readonly object[]): Promise<void>;
  close(): Promise<void>;
}

/** The part of the chdb package used here (its own types come with the optional install). */
interface ChdbSession {
  queryAsync(query: string, opts?: { format?: string }): Promise<{ text(): string }>;
  close(): void;
}
interface ChdbModule {
  Session: new (path: string) => ChdbSession;
}

export const CHDB_PACKAGE = 'chdb@3.4.0';

/** Rows as JSONEachRow text, and the de-duplication token of that text. */
function payload(rows: readonly object[]): { text: string; token: string } {
  const text = rows.map((r) => JSON.stringify(r)).join('\n');
  return { text, token: createHash('sha256').update(text).digest('hex') };
}

function parseLines<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) if (line !== '') out.push(JSON.parse(line) as T);
  return out;
}

/**
 * chdb allows one data directory per process: stores on the same directory share its connections
 * (the tests open several databases in one process), another directory is refused.
 */
let shared: { dir: string; pool: Pool<ChdbSession>; users: number } | null = null;

/**
 * Connections opened on a chdb directory (a Session each). One runs its queries one after another,
 * so the dozen queries coral_query_summary asks at once waited for each other. On 2 quiet cores, the
 * summary over 1M spans: 1 connection 2.1-2.35x DuckDB's wall clock, 2 and 4 both ~1.45x; but every
 * Session beyond the first costs CPU of its own, and the demo's trace search (queries one after
 * another) went from ~84 ms with 1 to ~92 with 2 and ~98-101 with 4. Two, as many as the cores here.
 */
export const CHDB_CONNECTIONS = 2;

/**
 * Where chdb is looked for, in order: the folder CORAL_CHDB_PATH names (an npm --prefix folder or
 * its node_modules), then `.cache/chdb` under coral's package root (where `npm run chdb` puts it,
 * never in package.json), then Node's own resolution from coral (a `npm install chdb` beside it).
 */
export function chdbPlaces(env: NodeJS.ProcessEnv, root: string): string[] {
  return [...(env.CORAL_CHDB_PATH ? [env.CORAL_CHDB_PATH] : []), join(root, '.cache', 'chdb')];
}

async function loadChdb(): Promise<ChdbModule> {
  const places = chdbPlaces(process.env, packageRoot());
  const failures: string[] = [];
  for (const place of places) {
    try {
      return createRequire(`${place.replace(/\/?$/, '/')}`)('chdb') as ChdbModule;
    } catch (err) {
      failures.push(`${place}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  try {
    // A variable specifier keeps the bundler from trying to inline the ~550 MB optional package.
    const name = 'chdb';
    const mod = (await import(name)) as ChdbModule & { default?: ChdbModule };
    return mod.Session ? mod : (mod.default as ChdbModule);
  } catch (err) {
    throw new CoralError(
      `chdb: URLs need the optional package ${CHDB_PACKAGE} (embedded ClickHouse, about 550 MB), which is not installed (looked in ${[...places, 'node_modules'].join(', ')}): ${[...failures, (err as Error).message.split('\n')[0]][0]}`,
      `Install it where coral looks, without touching package.json: npm install --no-save --prefix ${join(packageRoot(), '.cache', 'chdb')} ${CHDB_PACKAGE} (in a checkout: npm run chdb), or set CORAL_CHDB_PATH to a folder holding it; or use a ClickHouse server: --clickhouse http://host:8123/db.`,
    );
  }
}

async function openChdb(dir: string): Promise<ChClient> {
  if (shared && shared.dir !== dir) {
    throw new CoralError(`chdb already has ${shared.dir} open in this process; it allows one data directory per process.`, 'Use one chdb: directory (databases inside it can differ).');
  }
  if (!shared) {
    const chdb = await loadChdb();
    // chdb writes its parts for as long as the directory is open: created private (0600/0700).
    usePrivateUmask();
    const sessions: ChdbSession[] = [];
    try {
      for (let i = 0; i < CHDB_CONNECTIONS; i++) sessions.push(new chdb.Session(dir));
    } catch (err) {
      for (const s of sessions) s.close();
      throw err;
    }
    shared = { dir, pool: new Pool(sessions), users: 0 };
  }
  shared.users++;
  const pool = shared.pool;
  const run = async (sql: string) => (await pool.run((session) => session.queryAsync(sql, { format: 'JSONEachRow' }))).text();
  let closed = false;
  return {
    async query<T>(sql: string) {
      // As the HTTP client is configured: 64-bit integers as strings, never rounded to a double.
      return parseLines<T>(await run(`${sql} SETTINGS output_format_json_quote_64bit_integers = 1`));
    },
    async command(sql: string) {
      await run(sql);
    },
    async insert(table: string, rows: readonly object[]) {
      if (rows.length === 0) return;
      const { text, token } = payload(rows);
      // Inline data, not session.insert: that one refuses quoted (and so any configured) table names.
      await run(`INSERT INTO ${table} SETTINGS insert_deduplication_token = '${token}' FORMAT JSONEachRow\n${text}`);
    },
    async close() {
      if (closed || !shared) return;
      closed = true;
      if (--shared.users === 0) {
        for (const s of shared.pool.all()) s.close();
        shared = null;
      }
    },
  };
}

async function openHttp(t: Extract<ClickHouseTarget, { kind: 'http' }>, password: string | undefined): Promise<ChClient> {
  // A CommonJS package: bundled, its exports arrive under `default`.
  const mod = (await import('@clickhouse/client')) as typeof import('@clickhouse/client') & { default?: typeof import('@clickhouse/client') };
  const createClient = mod.createClient ?? mod.default?.createClient;
  const client = createClient({
    url: t.url,
    username: t.username,
    password: password ?? '',
    // 64-bit integers as JSON numbers lose precision past 2^53: the queries cast what they need to String.
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
  });
  const wrap = async <R>(what: string, run: () => Promise<R>): Promise<R> => {
    try {
      return await run();
    } catch (err) {
      const e = err as Error & { code?: string };
      if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND') {
        throw new CoralError(`Cannot reach ClickHouse at ${t.url}: ${e.message}`, 'Check the host and port (the HTTP interface listens on 8123 by default).');
      }
      throw new CoralError(`ClickHouse ${what} failed: ${e.message.split('\n')[0]}`);
    }
  };
  return {
    query: <T>(sql: string) => wrap('query', async () => (await client.query({ query: sql, format: 'JSONEachRow' })).json<T>()),
    command: (sql: string) => wrap('command', async () => void (await client.command({ query: sql }))),
    insert: (table: string, rows: readonly object[]) =>
      rows.length === 0 ? Promise.resolve() : wrap('insert', async () => void (await client.insert({
        table, values: rows as object[], format: 'JSONEachRow', clickhouse_settings: { insert_deduplication_token: payload(rows).token },
      }))),
    close: () => client.close(),
  };
}

export function openChClient(t: ClickHouseTarget, password?: string): Promise<ChClient> {
  return t.kind === 'chdb' ? openChdb(t.dir) : openHttp(t, password);
}
