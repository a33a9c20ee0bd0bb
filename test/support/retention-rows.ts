import { type IngestBatch, type LogRow, type SpanRow, emptyBatch } from '../../src/colony/store/rows.js';
import { hex } from './numbered-spans.js';

/** `n` spans and as many logs spread over the `stepNs` ending at `endNs`, ids from `first`. */
export function batchAt(first: number, n: number, endNs: bigint, stepNs: bigint): IngestBatch {
  const spans: SpanRow[] = [];
  const logs: LogRow[] = [];
  for (let i = 0; i < n; i++) {
    const t = endNs - stepNs + (BigInt(i) * stepNs) / BigInt(n);
    spans.push({
      traceId: hex(first + i, 32), spanId: hex(first + i + 1, 16), parentSpanId: '', traceState: '', name: `GET /r${i % 7}`, kind: 'SERVER', serviceName: `svc-${i % 5}`, source: 'otlp',
      scopeName: 's', scopeVersion: '', startNs: t, endNs: t + 5_000_000n, statusCode: 'UNSET', statusMessage: '', attributes: `{"http.route":"/r${i % 7}","n":${first + i}}`, resourceAttributes: '{"service.name":"svc"}',
      events: '[]', links: '[]', httpMethod: 'GET', httpRoute: `/r${i % 7}`, httpStatusCode: 200, rpcSystem: null, rpcService: null, rpcMethod: null, rpcStatusCode: null,
      dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
    });
    logs.push({ logId: `log-${first + i}`, timeNs: t, observedNs: t, serviceName: `svc-${i % 5}`, source: 'otlp', scopeName: '', severityNumber: 9, severityText: 'INFO', level: 'info',
      body: `request ${first + i} served`, traceId: hex(first + i, 32), spanId: hex(first + i + 1, 16), attributes: '{}', resourceAttributes: '{}' });
  }
  return Object.assign(emptyBatch(), { spans, logs });
}

