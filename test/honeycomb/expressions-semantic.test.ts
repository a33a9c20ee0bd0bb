import { describe, expect, it } from 'vitest';
import { derivedType, referencedColumns } from '../../src/honeycomb/expressions.js';
import { appColumns, customColumns, detectSemanticGroups } from '../../src/honeycomb/semantic.js';

describe('referencedColumns at the edges of the grammar', () => {
  it('reads a name that runs to the end of the expression', () => {
    expect(referencedColumns('$duration_ms')).toEqual(['duration_ms']);
  });

  it('keeps a quoted name left open to the end, a trailing backslash included', () => {
    expect(referencedColumns('GT($"unterminated')).toEqual(['unterminated']);
    expect(referencedColumns('GT($"ends in a backslash\\')).toEqual(['ends in a backslash\\']);
  });

  it('unescapes only inside double quotes: a raw `name` keeps its backslashes', () => {
    expect(referencedColumns('EXISTS($`C:\\temp\\x`)')).toEqual(['C:\\temp\\x']);
  });

  it('skips single-quoted literals as well', () => {
    expect(referencedColumns("CONCAT('$not_a_column', $real)")).toEqual(['real']);
  });

  it('finds no column in a lone $ or an empty quoted name', () => {
    expect(referencedColumns('SUM($, 1)')).toEqual([]);
    expect(referencedColumns('EQUALS($"", $``)')).toEqual([]);
  });
});

describe('derivedType for every function it knows', () => {
  const cases: [string, string][] = [
    ...['LT', 'LTE', 'GT', 'GTE', 'EQUALS', 'NOT', 'AND', 'OR', 'EXISTS', 'CONTAINS', 'STARTS_WITH', 'ENDS_WITH', 'REG_MATCH', 'IN', 'BOOL'].map((f): [string, string] => [f, 'boolean']),
    ...['SUM', 'SUB', 'MUL', 'DIV', 'MOD', 'MIN', 'MAX', 'LOG10', 'POW', 'FLOAT', 'EVENT_TIMESTAMP', 'INGEST_TIMESTAMP', 'UNIX_TIMESTAMP'].map((f): [string, string] => [f, 'float']),
    ...['INT', 'LENGTH', 'BUCKET'].map((f): [string, string] => [f, 'integer']),
    ['COALESCE', 'string'],
  ];
  it.each(cases)('%s(...) is %s', (fn, type) => {
    expect(derivedType(`${fn}($a, 1)`)).toBe(type);
  });

  it('reads the outermost function only, with spaces around it, and calls anything else a string', () => {
    expect(derivedType('  LT ($a, 1)')).toBe('boolean');
    expect(derivedType('$status_code')).toBe('string');
    expect(derivedType('"GT(x) is only text"')).toBe('string');
  });
});

describe('semantic groups, one column at a time', () => {
  const groupsOf = (col: string) => Object.entries(detectSemanticGroups([col])).filter(([, on]) => on).map(([g]) => g);
  it.each([
    ...['trace.trace_id', 'trace.span_id', 'trace.parent_id', 'span.kind', 'span.name', 'span.status', 'service.name', 'service.version', 'duration_ms', 'name'].map((c) => [c, 'has_otel_traces']),
    ['http.method', 'has_http'], ['db.system', 'has_db'], ['k8s.pod.name', 'has_k8s'], ['cloud.region', 'has_cloud'], ['system.cpu.utilization', 'has_system_metrics'],
    ['body', 'has_logs'], ['severity', 'has_logs'], ['severity_text', 'has_logs'], ['log.file.name', 'has_logs'],
    ['rpc.method', 'has_rpc'], ['messaging.system', 'has_messaging'], ['faas.trigger', 'has_faas'], ['net.peer.name', 'has_net'], ['network.protocol.name', 'has_net'],
    ...['.max', '.min', '.count', '.sum', '.avg', '.p50', '.p90', '.p95', '.p99'].map((s) => [`latency${s}`, 'has_histograms']),
  ])('%s -> %s', (col, group) => {
    expect(groupsOf(col)).toEqual([group]);
  });

  it('matches exact names exactly and prefixes only with their dot', () => {
    expect(groupsOf('user.name')).toEqual([]);
    expect(groupsOf('hostname')).toEqual([]);
    expect(groupsOf('http')).toEqual([]);
  });
});

describe('customColumns: the specification\'s extract_custom_columns to the letter', () => {
  it('leaves out the five known exact names in any case, and keeps error (not on the spec\'s list)', () => {
    expect(customColumns(['name', 'body', 'severity', 'severity_text', 'error', 'Duration_MS', 'plan'])).toEqual(['error', 'plan']);
  });

  it('keeps the namespaces the spec\'s prefix list does not name', () => {
    const cols = ['network.peer.address', 'url.path', 'server.address', 'client.address', 'telemetry.sdk.name', 'meta.signal_type', 'rpc.method', 'enduser.id'];
    expect(customColumns(cols)).toEqual(cols.slice(0, 6));
  });

  it.each(['.max', '.min', '.count', '.sum', '.avg', '.p50', '.p90', '.p95', '.p99'])('skips a %s histogram column only when its base has a known prefix', (s) => {
    expect(customColumns([`duration_ms${s}`, `http.server.duration${s}`, `cart_value${s}`])).toEqual([`duration_ms${s}`, `cart_value${s}`]);
  });
});

describe('appColumns: coral\'s narrower grouping beside custom_columns', () => {
  it('also leaves out newer OTel and Honeycomb namespaces, error, and histograms of any known column', () => {
    const cols = ['network.peer.address', 'url.path', 'server.address', 'client.address', 'telemetry.sdk.name', 'meta.signal_type', 'error', 'duration_ms.p99', 'app.order.id', 'host.name'];
    expect(appColumns(cols)).toEqual(['app.order.id', 'host.name']);
    expect(appColumns(Array.from({ length: 30 }, (_, i) => `app${i}`))).toHaveLength(20);
  });
});
