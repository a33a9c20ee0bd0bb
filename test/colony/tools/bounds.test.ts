import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLogsJson, decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { normalizeLogs, normalizeTraces } from '../../../src/colony/otlp/normalize.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { boundStructured, boundText } from '../../../src/colony/tools/answer-bounds.js';
import { type CallResult, inMemoryClient } from '../../support/mcp.js';
import { MIN, SEC, T0, hexId, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';

const NOW = T0 + 10n * MIN;
const MiB = 1024 * 1024;
let store: ColonyStore;
let mcp: Awaited<ReturnType<typeof inMemoryClient>>;

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '2GB' });
  const huge = 'x'.repeat(MiB);
  const spans = Array.from({ length: 16 }, (_, i) => ({ traceId: hexId(16, 1, 3), spanId: hexId(8, i + 1, 3), parentSpanId: i === 0 ? undefined : hexId(8, 1, 3), name: `GET /big/${i}`, startNs: T0 + BigInt(i) * SEC, durationMs: 900, attributes: { 'http.route': '/big', 'http.request.method': 'GET', blob: huge } }));
  await store.write(normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(tracesBody(sdkResource('checkout'), 'x', spans))))).batch);
  const logs = Array.from({ length: 8 }, (_, i) => ({ timeNs: T0 + BigInt(i) * SEC, body: `${i} ${huge}`, severityNumber: 17 }));
  await store.write(normalizeLogs(decodeLogsJson(Buffer.from(JSON.stringify(logsBody(sdkResource('checkout'), 'x', logs))))).batch);
  mcp = await inMemoryClient(store, () => NOW);
}, 60_000);
afterAll(async () => {
  await mcp.close();
  await store.close();
});

const size = (r: CallResult) => ({ text: r.text.length, structured: JSON.stringify(r.structured).length });

describe('every answer bounded, text and structured', () => {
  it('16 spans with 1 MiB attributes and 1 MiB log lines stay within the budgets', async () => {
    for (const [tool, args] of [
      ['coral_query_traces', { service: 'checkout', time_range: '1h' }],
      ['coral_get_trace_by_id', { trace_id: hexId(16, 1, 3) }],
      ['coral_query_telemetry_logs', { service: 'checkout', time_range: '1h' }],
    ] as const) {
      const r = await mcp.call(tool, args);
      expect(r.isError, r.text.slice(0, 300)).toBe(false);
      const s = size(r);
      expect(s.text, tool).toBeLessThanOrEqual(16_000);
      expect(s.structured, tool).toBeLessThanOrEqual(64_000);
    }
  });

  it('cuts text at a line with a note, and shortens strings while keeping the shape', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i} ${'y'.repeat(50)}`).join('\n');
    const cut = boundText(text, 1000);
    expect(cut.length).toBeLessThanOrEqual(1000);
    expect(cut).toMatch(/answer cut at 1000 of \d+ characters/);
    const s = boundStructured({ rows: [{ a: 'z'.repeat(10_000), n: 1 }], truncated: false }, 3000);
    expect(JSON.stringify(s).length).toBeLessThanOrEqual(3000);
    expect(s.truncated).toBe(true);
    expect((s.rows[0] as { n: number }).n).toBe(1);
  });
});

describe('tool inputs bounded, with the accepted values in the error', () => {
  const error = async (tool: string, args: Record<string, unknown>) => {
    const r = await mcp.call(tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).not.toMatch(/Conversion Error|out of range|NaN|duckdb/i);
    return r.text;
  };

  it('time_range must be more than 0 and at most 3650d', async () => {
    expect(await error('coral_query_metrics', { service: 'checkout', time_range: '300000w' })).toMatch(/time_range must be more than 0 and at most 3650d/);
    expect(await error('coral_query_summary', { time_range: '0s' })).toMatch(/time_range must be more than 0/);
    expect((await mcp.call('coral_query_summary', { time_range: '520w' })).isError).toBe(false);
  });

  it('min_duration_ms is bounded', async () => {
    expect(await error('coral_query_traces', { service: 'checkout', min_duration_ms: 9007199254740991 })).toMatch(/min_duration_ms must be at most 2592000000 \(30 days\)/);
  });

  it('http_method and sql_operation are enumerations (RFD 067), matched in any case', async () => {
    expect(await error('coral_query_metrics', { service: 'checkout', http_method: 'FOO' })).toMatch(/http_method must be one of: GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH/);
    expect(await error('coral_query_metrics', { service: 'checkout', sql_operation: 'FROB' })).toMatch(/sql_operation must be one of: SELECT, INSERT, UPDATE, DELETE/);
    const ok = await mcp.call('coral_query_metrics', { service: 'checkout', http_method: 'get', time_range: '1h' });
    expect(ok.isError).toBe(false);
    expect(ok.text).toMatch(/GET/);
  });
});
