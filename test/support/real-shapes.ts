import { SEC, T0, hexId, sdkResource, tracesBody } from './otlp-json.js';

/**
 * Span shapes as real SDKs send them (the OpenTelemetry Demo's export): a Kafka batch consumer
 * whose spans link to the producers' spans in other traces (messaging semantic conventions: a
 * batch receive has one link per message, no parent), and the checkout producers it links to.
 */
export const PRODUCER_TRACES = [hexId(16, 101), hexId(16, 102)];
export const PRODUCER_SPANS = [hexId(8, 201), hexId(8, 202)];
export const CONSUMER_TRACE = hexId(16, 103);

export function kafkaBatchExports(): Record<string, unknown>[] {
  const producers = tracesBody(sdkResource('checkout', { 'telemetry.sdk.language': 'go' }), 'go.opentelemetry.io/contrib/instrumentation/github.com/IBM/sarama/otelsarama',
    PRODUCER_TRACES.map((traceId, i) => ({
      traceId, spanId: PRODUCER_SPANS[i], name: 'orders publish', kind: 4, startNs: T0 + BigInt(i) * SEC, durationMs: 0.4,
      attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders', 'messaging.operation.type': 'publish' },
    })));
  const consumer = tracesBody(sdkResource('accounting', { 'telemetry.sdk.language': 'dotnet' }), 'Confluent.Kafka', [{
    traceId: CONSUMER_TRACE, spanId: hexId(8, 203), name: 'orders receive', kind: 5, startNs: T0 + 3n * SEC, durationMs: 2.5,
    attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders', 'messaging.operation.type': 'receive', 'messaging.batch.message_count': 2 },
    links: PRODUCER_TRACES.map((traceId, i) => ({ traceId, spanId: PRODUCER_SPANS[i] })),
  }]);
  return [producers, consumer];
}
