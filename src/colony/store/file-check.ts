import type { DuckDBConnection } from '@duckdb/node-api';
import { CoralError } from '../../core/errors.js';
import { COLONY_TABLES, type TableShape } from './schema.js';

/** What a colony file's own catalog holds, as DuckDB lists it. */
export interface CatalogFacts {
  /** Every table and view of the file's main schema, with its columns in order. */
  relations: { name: string; type: 'BASE TABLE' | 'VIEW'; columns: { name: string; sqlType: string }[] }[];
  /** Views and macros anywhere in the file ("schema.name (kind)"). */
  code: string[];
}

export type CatalogVerdict = { ok: true; missing: string[] } | { ok: false; problems: string[] };

/**
 * Whether a file holds what coral wrote. Views and macros are refused wherever they are: coral
 * never writes one, a view can stand in for a table coral reads, and a macro in the file shadows
 * DuckDB's own function of that name in every query (measured: a file's `lower` macro answered for
 * the built-in). Other tables and schemas are ignored: coral's queries name only its own tables,
 * unqualified, so they resolve in the main schema checked here. `missing` are coral's tables the
 * file lacks (a new file, or one from before a table was added).
 */
export function judgeCatalog(facts: CatalogFacts, expected: readonly TableShape[] = COLONY_TABLES): CatalogVerdict {
  const problems = facts.code.map((c) => `${c}: coral writes no views or macros`);
  const missing: string[] = [];
  for (const want of expected) {
    const found = facts.relations.find((r) => r.name === want.name);
    if (!found) {
      missing.push(want.name);
      continue;
    }
    if (found.type !== 'BASE TABLE') continue; // already named among the views
    const have = found.columns.map((c) => `${c.name} ${c.sqlType}`).join(', ');
    const wanted = want.columns.map((c) => `${c.name} ${c.sqlType}`).join(', ');
    if (have !== wanted) problems.push(`table ${want.name} has columns (${have}); coral's has (${wanted})`);
  }
  if (missing.length === expected.length && facts.relations.length > 0) problems.push(`none of coral's tables (${expected.map((t) => t.name).join(', ')})`);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, missing };
}

/** The facts judgeCatalog needs, read from the file's catalog (not from temporary or system objects). */
export async function readCatalog(conn: DuckDBConnection): Promise<CatalogFacts> {
  const columns = (await conn.runAndReadAll(
    `SELECT t.table_name, t.table_type, c.column_name, c.data_type
       FROM information_schema.tables t LEFT JOIN information_schema.columns c USING (table_catalog, table_schema, table_name)
      WHERE t.table_catalog = current_database() AND t.table_schema = 'main'
      ORDER BY t.table_name, c.ordinal_position`,
  )).getRows() as [string, 'BASE TABLE' | 'VIEW', string | null, string | null][];
  const relations: CatalogFacts['relations'] = [];
  for (const [name, type, column, sqlType] of columns) {
    let r = relations.at(-1);
    if (r?.name !== name) relations.push((r = { name, type, columns: [] }));
    if (column !== null && sqlType !== null) r.columns.push({ name: column, sqlType });
  }
  const code = (await conn.runAndReadAll(
    `SELECT schema_name || '.' || view_name || ' (view)' FROM duckdb_views() WHERE database_name = current_database() AND NOT internal
     UNION ALL
     SELECT DISTINCT schema_name || '.' || function_name || ' (' || function_type || ')' FROM duckdb_functions() WHERE database_name = current_database() AND NOT internal
     ORDER BY 1`,
  )).getRows().map(([c]) => String(c));
  return { relations, code };
}

/**
 * Refuses a file that is not what coral wrote (see judgeCatalog); the tables it lacks otherwise.
 * `readOnly`: a file only read cannot be given the missing tables, so it is refused too.
 */
export async function checkColonyFile(conn: DuckDBConnection, path: string, o: { readOnly: boolean }): Promise<string[]> {
  const verdict = judgeCatalog(await readCatalog(conn));
  if (!verdict.ok) {
    throw new CoralError(
      `${path} is not a colony file as coral writes one, so it was not read: ${verdict.problems.join('; ')}.`,
      'A colony file holds only the tables coral creates (otel_traces, otel_logs, the metric tables, coral_events, coral_services, coral_meta) as plain tables. Pass the file `coral colony serve` wrote, or a new path with --db.',
    );
  }
  if (o.readOnly && verdict.missing.length > 0) {
    throw new CoralError(
      `${path} lacks coral's table${verdict.missing.length === 1 ? '' : 's'} ${verdict.missing.join(', ')}, and was opened only to be read.`,
      `Open it once with a command that writes (\`coral colony serve --db ${path}\`), which adds them; or pass the file \`coral colony serve\` wrote.`,
    );
  }
  return verdict.missing;
}
