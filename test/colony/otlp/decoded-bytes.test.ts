import { describe, expect, it } from 'vitest';
import { decodedBytesEstimate } from '../../../src/colony/otlp/decoded-bytes.js';
import { countExportItems } from '../../../src/colony/otlp/export-items.js';
import { decodeColumnar } from '../../../src/colony/otlp/ingest.js';
import type { OtlpMetric, OtlpSpan, Signal } from '../../../src/colony/otlp/model.js';
import type { Encoding } from '../../../src/colony/otlp/responses.js';
import { batchBytes } from '../../../src/colony/store/columnar-batch.js';
import { minimalSpansExport } from '../../support/minimal-spans.js';
import { T0, hexId, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';
import { metricBytes, requestBytes, spanBytes } from '../../support/otlp-proto.js';

/** The estimate before decoding, and the batch's measured size after. */
function sizes(signal: Signal, encoding: Encoding, body: Buffer): { estimate: number; actual: number } {
  const estimate = decodedBytesEstimate(signal, encoding, countExportItems(signal, encoding, body), body.length);
  const actual = batchBytes(decodeColumnar(signal, encoding, body).batch);
  return { estimate, actual };
}

const richSpan = (i: number): OtlpSpan => ({
  traceId: hexId(16, i >> 3), spanId: hexId(8, i), parentSpanId: i % 8 === 0 ? '' : hexId(8, i - 1), traceState: '', name: `GET /api/orders/${i % 40}`, kind: 2,
  startNs: T0 + BigInt(i) * 1000n, endNs: T0 + BigInt(i) * 1000n + 3_000_000n, statusCode: i % 50 === 0 ? 2 : 0, statusMessage: '',
  attributes: { 'http.route': `/api/orders/${i % 40}`, 'http.response.status_code': 200, 'url.full': `https://shop.example.com/api/orders/${i}?expand=items`, 'user_agent.original': 'Mozilla/5.0 (X11; Linux x86_64)' },
  events: i % 20 === 0 ? [{ timeNs: T0, name: 'exception', attributes: { 'exception.message': `order ${i} not found` } }] : [], links: [],
});

describe('the decoded batch, told before decoding', () => {
  it('is at least what minimal spans measure once decoded, and not twice it', () => {
    for (const n of [1, 512, 8192, 65_536]) {
      const { estimate, actual } = sizes('traces', 'protobuf', minimalSpansExport(n, 'svc', T0));
      expect(estimate, `${n} spans`).toBeGreaterThanOrEqual(actual);
      expect(estimate, `${n} spans`).toBeLessThan(1.25 * actual + 1024);
    }
  });

  it('is at least what spans with attributes and events measure, in protobuf and JSON', () => {
    const spans = Array.from({ length: 4000 }, (_, i) => richSpan(i));
    const proto = sizes('traces', 'protobuf', requestBytes([{ resource: { attributes: sdkResource('shop') }, scopes: [{ scope: { name: 'http', version: '', attributes: {} }, items: spans }] }], spanBytes));
    const json = sizes('traces', 'json', Buffer.from(JSON.stringify(tracesBody(sdkResource('shop'), 'http', spans.map((s) => ({
      traceId: s.traceId!, spanId: s.spanId!, name: s.name, startNs: s.startNs, durationMs: 3, attributes: s.attributes as Record<string, string | number>,
    }))))));
    for (const { estimate, actual } of [proto, json]) {
      expect(estimate).toBeGreaterThanOrEqual(actual);
      expect(estimate).toBeLessThan(3 * actual);
    }
  });

  it('is at least what data points and log records measure', () => {
    const gauge = (i: number): OtlpMetric => ({ name: `m${i % 10}`, description: '', unit: 'ms', data: { type: 'gauge', points: Array.from({ length: 20 }, (_, k) => ({ attributes: { host: `h${k}` }, startNs: T0, timeNs: T0 + BigInt(k), value: k })) } });
    const metrics = requestBytes([{ resource: { attributes: sdkResource('m') }, scopes: [{ scope: { name: 's', version: '', attributes: {} }, items: Array.from({ length: 200 }, (_, i) => gauge(i)) }] }], (m) => metricBytes(m));
    const logs = Buffer.from(JSON.stringify(logsBody(sdkResource('l'), 's', Array.from({ length: 3000 }, (_, i) => ({ timeNs: T0 + BigInt(i), severityNumber: 9, body: `request ${i} served in ${i % 90} ms` })))));
    for (const { estimate, actual } of [sizes('metrics', 'protobuf', metrics), sizes('logs', 'json', logs)]) {
      expect(estimate).toBeGreaterThanOrEqual(actual);
    }
  });
});
