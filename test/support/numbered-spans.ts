import { type SpanRow, emptyBatch } from '../../src/colony/store/rows.js';
import type { ColonyStore } from '../../src/colony/store/store.js';

export const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

/**
 * Spans numbered `ids` (span id: the number plus one in hex, four spans to a trace), all named `name`
 * and starting at `startNs`: the same number again is a re-send of that span (the span-key tests).
 */
export function numberedSpans(ids: readonly number[], name: string, startNs = 1_700_000_000_000_000_000n): SpanRow[] {
  return ids.map((i) => ({
    traceId: hex(i >> 2, 32), spanId: hex(i + 1, 16), parentSpanId: '', traceState: '', name, kind: 'SERVER', serviceName: 'svc', source: 'otlp',
    scopeName: 's', scopeVersion: '', startNs, endNs: startNs + 1000n, statusCode: 'UNSET', statusMessage: '', attributes: '{}', resourceAttributes: '{}',
    events: '[]', links: '[]', httpMethod: null, httpRoute: null, httpStatusCode: null, rpcSystem: null, rpcService: null, rpcMethod: null, rpcStatusCode: null,
    dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
  }));
}

/** Writes the spans as one batch of their own. */
export const writeSpans = (store: ColonyStore, rows: SpanRow[]) => store.write(Object.assign(emptyBatch(), { spans: rows }));
