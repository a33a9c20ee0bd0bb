import { createHash } from 'node:crypto';
import { EBPF_RESOURCE_MARKERS, EBPF_SCOPES, SCOPE_RESOURCE_KEYS } from '../../otlp/classify.js';
import { HOT_KEYS } from '../../otlp/semconv.js';
import { EVENT_ALIASES } from '../../otlp/normalize.js';
import { GRPC_CODE_NAMES } from '../../../core/grpc.js';
import type { TableNames } from './ddl.js';
import { lit, list } from './sql.js';

/**
 * What the DuckDB colony derives at ingest (source, promoted semantic-convention attributes, event
 * kind, series identity), as ClickHouse expressions over the exporter's columns. Each is either read
 * from a MATERIALIZED column coral added to the table (computed once, at insert) or, when coral may
 * not alter the table, computed at read time from the same expression: one definition, same answers.
 */
export interface DerivedColumn {
  /** The name the queries use (the DuckDB colony's column name). */
  name: string;
  /** The stored type (ALTER TABLE ADD COLUMN needs one). */
  type: string;
  expr: string;
}

/** classifySource (otlp/classify.ts) as SQL over a resource map and a scope name. */
export function sourceExpr(resource: string, scope: string): string {
  const scopes = list([...EBPF_SCOPES]);
  const tests = [
    ...EBPF_RESOURCE_MARKERS.map(([k, v]) => `${resource}[${lit(k)}] = ${lit(v)}`),
    ...SCOPE_RESOURCE_KEYS.map((k) => `${resource}[${lit(k)}] IN ${scopes}`),
    `${scope} IN ${scopes}`,
  ];
  return `if(${tests.join(' OR ')}, 'ebpf', 'otlp')`;
}

/** The first non-empty value among `keys` (semconv.ts `text`): a missing map key reads as ''. */
function text(attrs: string, keys: readonly string[]): string {
  const parts = keys.map((k) => `nullIf(${attrs}[${lit(k)}], '')`);
  return parts.length === 1 ? parts[0] : `coalesce(${parts.join(', ')})`;
}

/** semconv.ts `integer`: only a value that is all digits (an optional minus) counts. */
function integer(attrs: string, keys: readonly string[]): string {
  const v = text(attrs, keys);
  return `if(match(${v}, '^-?[0-9]+$'), toInt32OrNull(${v}), NULL)`;
}

function grpcCode(attrs: string): string {
  const v = text(attrs, HOT_KEYS.rpcStatusCode);
  const names = `[${GRPC_CODE_NAMES.map((n) => lit(n)).join(', ')}]`;
  return `multiIf(match(${v}, '^[0-9]+$'), toInt32OrNull(${v}), indexOf(${names}, upper(${v})) > 0, toInt32(indexOf(${names}, upper(${v})) - 1), NULL)`;
}

/**
 * The promoted columns (semconv.ts hotAttributes), including the split of `/pkg.Service/Method`
 * paths and, for spans, Beyla's gRPC spans named by their path (normalize.ts). Each expression
 * stands alone (a MATERIALIZED column cannot use another's alias); ClickHouse evaluates a repeated
 * sub-expression once.
 */
export function hotColumns(attrs: string, spanName: string | null): DerivedColumn[] {
  const rawMethod = text(attrs, HOT_KEYS.rpcMethod);
  const system = text(attrs, HOT_KEYS.rpcSystem);
  const path = spanName === null
    ? `if(position(${rawMethod}, '/') > 0, ${rawMethod}, NULL)`
    : `multiIf(position(${rawMethod}, '/') > 0, ${rawMethod}, ${rawMethod} IS NULL AND ${system} = 'grpc' AND startsWith(${spanName}, '/'), ${spanName}, NULL)`;
  const trimmed = `replaceRegexpOne(${path}, '^/', '')`;
  const method = `if(${path} IS NULL, ${rawMethod}, arrayElement(splitByChar('/', ${trimmed}), -1))`;
  const service = `coalesce(${text(attrs, HOT_KEYS.rpcService)}, if(position(${trimmed}, '/') > 0, substring(${trimmed}, 1, length(${trimmed}) - length(${method}) - 1), NULL))`;
  const str = (name: string, expr: string): DerivedColumn => ({ name, type: 'Nullable(String)', expr });
  const int = (name: string, expr: string): DerivedColumn => ({ name, type: 'Nullable(Int32)', expr });
  return [
    str('http_method', text(attrs, HOT_KEYS.httpMethod)),
    str('http_route', text(attrs, HOT_KEYS.httpRoute)),
    int('http_status_code', integer(attrs, HOT_KEYS.httpStatusCode)),
    str('rpc_system', system),
    str('rpc_method', method),
    str('rpc_service', service),
    int('rpc_status_code', grpcCode(attrs)),
    str('db_system', text(attrs, HOT_KEYS.dbSystem)),
    str('db_operation', text(attrs, HOT_KEYS.dbOperation)),
    str('db_table', text(attrs, HOT_KEYS.dbTable)),
    str('db_statement', text(attrs, HOT_KEYS.dbStatement)),
    str('peer_service', text(attrs, HOT_KEYS.peerService)),
    str('server_address', text(attrs, HOT_KEYS.serverAddress)),
  ];
}

/** otlp/normalize.ts eventKindOf as SQL: '' when the record is not an operational event. */
export function eventKindExpr(logsHaveEventName: boolean): string {
  const raw = logsHaveEventName ? `if(EventName != '', EventName, LogAttributes['event.name'])` : `LogAttributes['event.name']`;
  const names = Object.keys(EVENT_ALIASES);
  return `transform(lower(replaceRegexpOne(${raw}, '^coral\\\\.', '')), [${names.map((n) => lit(n)).join(', ')}], [${names.map((n) => lit(EVENT_ALIASES[n])).join(', ')}], '')`;
}

const SOURCE: DerivedColumn = { name: 'source', type: 'LowCardinality(String)', expr: sourceExpr('ResourceAttributes', 'ScopeName') };
/** Identity of a metric series, as normalize.ts seriesKey (metric, service, source, resource, attributes). */
export const SERIES_KEY: DerivedColumn = { name: 'series_key', type: 'String', expr: `hex(cityHash64(MetricName, ServiceName, ScopeName, ResourceAttributes, Attributes))` };

/** Identity of a span's resource: trace detail reads this instead of the map itself (see resources.ts). */
export const RESOURCE_HASH: DerivedColumn = { name: 'resource_hash', type: 'UInt64', expr: 'cityHash64(ResourceAttributes)' };

/** Every derived column of one of the exporter's tables. */
export function derivedColumns(which: keyof TableNames, logsHaveEventName: boolean): DerivedColumn[] {
  switch (which) {
    case 'traces':
      return [SOURCE, ...hotColumns('SpanAttributes', 'SpanName'), RESOURCE_HASH];
    case 'histogram':
      return [SOURCE, SERIES_KEY, ...hotColumns('Attributes', null), { name: 'error_type', type: 'Nullable(String)', expr: `nullIf(Attributes['error.type'], '')` }];
    case 'gauge':
    case 'sum':
      return [SOURCE, SERIES_KEY];
    case 'logs':
      return [
        SOURCE,
        { name: 'event_kind', type: 'LowCardinality(String)', expr: eventKindExpr(logsHaveEventName) },
        { name: 'has_sdk', type: 'Bool', expr: `mapContains(ResourceAttributes, 'telemetry.sdk.name')` },
      ];
  }
}

/**
 * The stored column's name carries a digest of its definition: a coral release that changes a rule
 * adds a new column instead of reading values an older rule computed (ClickHouse keeps stored
 * values when a MATERIALIZED expression is modified).
 */
export function storedName(c: DerivedColumn): string {
  const digest = createHash('sha1').update(`${c.type}\n${c.expr}`).digest('hex').slice(0, 8);
  return `coral_${c.name}_${digest}`;
}
