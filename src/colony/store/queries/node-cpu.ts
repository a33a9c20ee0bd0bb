import type { Database } from '../db.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';

/**
 * CPU per service and node: the mean of the processes' CPU gauges whose resource names a node
 * (k8s.node.name, else host.name). What ties a slowdown of several services to one busy neighbour.
 */
export interface NodeCpuRow {
  service: string;
  node: string;
  /** Mean utilisation, 0..1 per core as the gauge reports it, rounded to 1e-4. */
  cpu: number;
  points: number;
}

export const CPU_GAUGES = ['process.cpu.utilization', 'container.cpu.utilization'];
/** The resource keys that name a process's node, the first present wins (also how the summary groups instances by node). */
export const NODE_KEYS = ['k8s.node.name', 'host.name'];

export async function nodeCpu(db: Database, range: TimeRange): Promise<NodeCpuRow[]> {
  const w = new Where().range('time_ns', range).add(`metric_name IN (${CPU_GAUGES.map(() => '?').join(', ')})`, ...CPU_GAUGES);
  const node = `coalesce(${NODE_KEYS.map((k) => `nullif(json_extract_string(resource_attributes, '$."${k}"'), '')`).join(', ')})`;
  return db.query<NodeCpuRow>(
    `SELECT service_name AS service, node, round(avg(value), 4)::DOUBLE AS cpu, count(*)::INTEGER AS points
     FROM (SELECT service_name, ${node} AS node, value FROM otel_metrics_number WHERE ${w.sql()})
     WHERE node IS NOT NULL GROUP BY service_name, node ORDER BY service_name, node`,
    w.params,
  );
}
