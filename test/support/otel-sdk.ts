/** Real OpenTelemetry JS SDK objects, for tests and benchmarks that need genuine OTLP payloads. */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

/** Builds `count` finished spans as a checkout service would: a server span with client children. */
export async function sdkSpans(count: number, service = 'checkout', resource: Record<string, string> = {}): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service, ...resource }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('@opentelemetry/instrumentation-http', '0.1.0');
  let made = 0;
  while (made < count) {
    const root = tracer.startSpan('POST /api/checkout', {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'POST', 'http.route': '/api/checkout', 'http.response.status_code': 200 },
    });
    made++;
    const ctx = trace.setSpan(ROOT_CONTEXT, root);
    for (let i = 0; i < 3 && made < count; i++, made++) {
      const child = tracer.startSpan('oteldemo.PaymentService/Charge', {
        kind: SpanKind.CLIENT,
        attributes: { 'rpc.system': 'grpc', 'rpc.service': 'oteldemo.PaymentService', 'rpc.method': 'Charge', 'rpc.grpc.status_code': 0 },
      }, ctx);
      child.end();
    }
    root.setStatus({ code: SpanStatusCode.OK });
    root.end();
  }
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return spans;
}

export function protobufTraces(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array);
}

export function jsonTraces(spans: ReadableSpan[]): Buffer {
  return Buffer.from(JsonTraceSerializer.serializeRequest(spans) as Uint8Array);
}

export function hrToNs(t: [number, number]): bigint {
  return BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);
}
