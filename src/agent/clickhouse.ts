import { CoralError } from '../core/errors.js';
import type { Colony } from '../colony/store/colony.js';
import { parseClickHouseUrl } from '../colony/store/clickhouse/url.js';
import { resolveClickHouseSettings, resolveSecret } from './config.js';

/** The ClickHouse URL configured for when no colony is named (config clickhouse.url), if any. */
export function configuredClickHouseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return resolveClickHouseSettings(env).url;
}

/**
 * Opens the ClickHouse colony `--clickhouse URL` names, with config clickhouse.{password, database,
 * tables, materialize, trace_projection} (the password an env:// reference; CLICKHOUSE_PASSWORD when none is configured).
 * `create`: serving and loading create the exporter's tables when missing; reading never does.
 */
export async function openClickHouseColony(url: string, o: { create: boolean; env?: NodeJS.ProcessEnv }): Promise<Colony> {
  const env = o.env ?? process.env;
  const settings = resolveClickHouseSettings(env);
  const target = parseClickHouseUrl(url, settings.database);
  const password = settings.password ? resolveSecret(settings.password, env) : env.CLICKHOUSE_PASSWORD;
  const { ClickHouseStore } = await import('../colony/store/clickhouse/store.js');
  const store = await ClickHouseStore.open({ target, password, tables: settings.tables, create: o.create, materialize: settings.materialize,
    traceProjection: settings.trace_projection });
  if (!o.create && !(await store.hasTraces())) {
    await store.close();
    throw new CoralError(
      `${store.path} has no ${settings.tables?.traces ?? 'otel_traces'} table.`,
      'Point --clickhouse at the database the Collector\'s clickhouse exporter writes (…:8123/DATABASE), set clickhouse.tables in ~/.coral/config.yaml if it renames them, or load data first: coral demo load S --clickhouse URL.',
    );
  }
  return store;
}
