import { SpanKind } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { WireReader } from '../../../src/colony/otlp/wire.js';
import { jsonTraces, protobufTraces } from '../../support/otel-sdk.js';
import { varint } from '../../support/otlp-proto.js';

/** One span carrying these integer attributes, made and serialised by the real OpenTelemetry SDK. */
async function spanWith(attributes: Record<string, number>) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'cart' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.getTracer('t').startSpan('op', { kind: SpanKind.INTERNAL, attributes }).end();
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return spans;
}

describe('int64 attributes in protobuf', () => {
  const values = { 'retry.delta': -1, 'clock.skew_ms': -1500, 'min.safe': -Number.MAX_SAFE_INTEGER, 'max.safe': Number.MAX_SAFE_INTEGER, 'zero': 0, 'small': 7 };

  it('decodes negative int_value attributes from the SDK serializer as signed numbers', async () => {
    const spans = await spanWith(values);
    const [span] = decodeTracesProto(protobufTraces(spans))[0].scopes[0].items;
    expect(span.attributes).toEqual(values);
  });

  it('agrees with the JSON decoding of the same spans', async () => {
    const spans = await spanWith(values);
    const [fromJson] = decodeTracesJson(jsonTraces(spans))[0].scopes[0].items;
    const [fromProto] = decodeTracesProto(protobufTraces(spans))[0].scopes[0].items;
    expect(fromProto.attributes).toEqual(fromJson.attributes);
  });

  it('reads two\'s complement varints: numbers while safe, exact decimal strings beyond', () => {
    const read = (v: bigint) => new WireReader(Buffer.from(varint(v))).int64();
    expect(read(-1n)).toBe(-1);
    expect(read(-(2n ** 53n) + 1n)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(read(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(read(2n ** 63n - 1n)).toBe('9223372036854775807');
    expect(read(2n ** 60n)).toBe('1152921504606846976');
    expect(read(2n ** 49n)).toBe(2 ** 49);
    expect(varint(-1n)).toHaveLength(10);
  });
});
