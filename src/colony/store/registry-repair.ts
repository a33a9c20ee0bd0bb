import type { Database } from './db.js';

/** How far before the registry's newest sighting the repair reads rows. */
const REPAIR_WINDOW_NS = 3_600_000_000_000n;
const SOURCES: { table: string; first: string; last: string }[] = [
  { table: 'otel_traces', first: 'start_ns', last: 'end_ns' },
  { table: 'otel_metrics_number', first: 'time_ns', last: 'time_ns' },
  { table: 'otel_metrics_histogram', first: 'time_ns', last: 'time_ns' },
  { table: 'otel_logs', first: 'time_ns', last: 'time_ns' },
];

/**
 * The service registry trails ingest by up to a second (writer.ts), so a colony killed with -9 can
 * reopen with `last_seen` behind its own data, forever. Rebuilt from the data at open: one
 * aggregate per table, and it only ever widens first/last seen. Only rows from an hour before the
 * registry's newest sighting on are read (issue 33: the whole tables cost time in proportion to
 * the colony's size at every open): what a crash can leave unregistered is that recent. A registry
 * with no row (a colony from before it, or killed before its first update) is rebuilt from all rows.
 */
export async function repairServiceRegistry(db: Database): Promise<void> {
  const [newest] = (await db.registry.runAndReadAll('SELECT max(last_seen_ns) FROM coral_services')).getRows()[0] as [bigint | null];
  // On the raw time column, so DuckDB skips older row groups by their zone maps.
  const since = newest === null ? null : BigInt(newest) - REPAIR_WINDOW_NS;
  const union = SOURCES.map((s) => `SELECT service_name, source, min(${s.first}) AS f, max(${s.last}) AS l, any_value(resource_attributes)::VARCHAR AS r
    FROM ${s.table}${since === null ? '' : ` WHERE ${s.first} >= ${since}`} GROUP BY ALL`).join(' UNION ALL ');
  await db.registry.run(
    `INSERT INTO coral_services
       SELECT service_name, source, min(f), max(l), any_value(r)::JSON FROM (${union}) GROUP BY service_name, source
     ON CONFLICT (service_name, source) DO UPDATE SET
       first_seen_ns = least(coral_services.first_seen_ns, excluded.first_seen_ns),
       last_seen_ns = greatest(coral_services.last_seen_ns, excluded.last_seen_ns)`,
  );
}
