import type { Database } from '../db.js';
import type { EventKind } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';

export interface EventQuery {
  range: TimeRange;
  service?: string;
  kind?: EventKind;
  limit: number;
}

export interface EventOut {
  timeNs: bigint;
  serviceName: string;
  kind: EventKind;
  title: string;
  attributes: Record<string, unknown>;
}

/** Operational events (deploys, restarts, crashes, alerts, config changes), newest first. */
export async function queryEvents(db: Database, q: EventQuery): Promise<EventOut[]> {
  const w = new Where().range('time_ns', q.range);
  w.maybe(q.service, 'service_name = ?');
  w.maybe(q.kind, 'kind = ?');
  const rows = await db.query<Record<string, unknown> & { time_ns: bigint }>(
    `SELECT time_ns, service_name, kind, title, attributes FROM coral_events
     WHERE ${w.sql()} ORDER BY time_ns DESC, event_id LIMIT ${w.bind(q.limit)}`,
    w.params,
  );
  return rows.map((r) => ({
    timeNs: r.time_ns,
    serviceName: r.service_name as string,
    kind: r.kind as EventKind,
    title: r.title as string,
    attributes: JSON.parse(r.attributes as string),
  }));
}
