/** What the OTLP decoder tests share: the message of a decode error, and one-item JSON requests. */
import { expect } from 'vitest';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from '../../src/colony/otlp/decode-json.js';
import { OtlpDecodeError } from '../../src/colony/otlp/model.js';

/** The message of the OtlpDecodeError `f` throws (any other error, or none, fails the test). */
export function decodeError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(OtlpDecodeError);
    return (err as Error).message;
  }
  throw new Error('expected a decode error');
}

export const buf = (v: unknown) => Buffer.from(JSON.stringify(v));
export const TRACE = 'ab'.repeat(16);
export const SPAN = 'cd'.repeat(8);
/** The one span of a JSON traces request holding `fields`. */
export const spanOf = (fields: Record<string, unknown>) => decodeTracesJson(buf({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN, ...fields }] }] }] }))[0].scopes[0].items[0];
/** The value of attribute `k` decoded from the JSON AnyValue `value`. */
export const attr = (value: unknown) => spanOf({ attributes: [{ key: 'k', value }] }).attributes.k;
export const metricOf = (m: Record<string, unknown>) => decodeMetricsJson(buf({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'm', ...m }] }] }] }))[0].scopes[0].items[0];
export const logOf = (l: Record<string, unknown>) => decodeLogsJson(buf({ resourceLogs: [{ scopeLogs: [{ logRecords: [l] }] }] }))[0].scopes[0].items[0];
