import { describe, expect, it } from 'vitest';
import { otlpJsonToProto } from '../../src/demo/otlp-proto.js';
import { decodeLogsValue, decodeMetricsValue, decodeTracesValue } from '../../src/colony/otlp/decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from '../../src/colony/otlp/decode-proto.js';
import { streamExportLines } from '../../src/demo/export-lines.js';
import { scenariosDir } from '../../src/demo/files.js';

const DECODE = {
  traces: { json: decodeTracesValue, proto: decodeTracesProto },
  metrics: { json: decodeMetricsValue, proto: decodeMetricsProto },
  logs: { json: decodeLogsValue, proto: decodeLogsProto },
} as const;

describe('OTLP/JSON to protobuf (replay over http/protobuf and gRPC)', () => {
  it('encodes every export of a scenario so that the protobuf decoder reads what the JSON decoder reads', async () => {
    const seen = { traces: 0, metrics: 0, logs: 0 };
    for await (const line of streamExportLines('payment-failure', scenariosDir())) {
      const d = DECODE[line.signal];
      const fromJson = d.json(structuredClone(line.body) as never);
      const fromProto = d.proto(otlpJsonToProto(line.signal, line.body as Record<string, unknown>));
      expect(fromProto).toEqual(fromJson);
      seen[line.signal]++;
      if (seen.traces > 40 && seen.metrics > 10 && seen.logs > 10) break;
    }
    expect(Math.min(seen.traces, seen.metrics, seen.logs)).toBeGreaterThan(10);
  });

  it('keeps oneof defaults, negative integers and nested values', () => {
    const body = { resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: { name: 's' }, logRecords: [{
      timeUnixNano: '1764671415000000000', severityNumber: 9, body: { kvlistValue: { values: [{ key: 'ok', value: { boolValue: false } }, { key: 'n', value: { intValue: '-3' } }, { key: 'z', value: { intValue: '0' } }, { key: 'list', value: { arrayValue: { values: [{ doubleValue: 0.5 }, { stringValue: '' }] } } }] } },
      attributes: [{ key: 'bytes', value: { bytesValue: 'AQID' } }],
    }] }] }] };
    expect(decodeLogsProto(otlpJsonToProto('logs', body))).toEqual(decodeLogsValue(structuredClone(body) as never));
  });
});
