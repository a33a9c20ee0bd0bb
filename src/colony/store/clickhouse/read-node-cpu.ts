import type { TimeRange } from '../../../core/time.js';
import { CPU_GAUGES, NODE_KEYS, type NodeCpuRow } from '../queries/node-cpu.js';
import type { ChClient } from './client.js';
import { inRange, list, lit } from './sql.js';
import { type ChSchema, table } from './views.js';

/** queries/node-cpu.ts over the exporter's gauge table (the inner name differs: ClickHouse lets a SELECT alias shadow a column in WHERE). */
export async function nodeCpu(ch: ChClient, s: ChSchema, range: TimeRange): Promise<NodeCpuRow[]> {
  const node = `coalesce(${NODE_KEYS.map((k) => `nullIf(ResourceAttributes[${lit(k)}], '')`).join(', ')})`;
  return ch.query<NodeCpuRow>(
    `SELECT service, assumeNotNull(node_name) AS node, round(avg(Value), 4) AS cpu, toInt32(count()) AS points
     FROM (SELECT ServiceName AS service, ${node} AS node_name, Value FROM ${table(s, 'gauge')}
           WHERE ${inRange('TimeUnix', range)} AND MetricName IN ${list(CPU_GAUGES)})
     WHERE node_name IS NOT NULL GROUP BY service, node_name ORDER BY service, node`,
  );
}
