import { describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { createColonyServer } from '../../../src/colony/server.js';
import { createToolContext } from '../../../src/colony/tools/types.js';
import { runTurn } from '../../../src/agent/loop.js';
import { ToolHub } from '../../../src/agent/toolhub.js';
import { TriageProvider } from '../../../src/agent/providers/triage.js';
import type { AgentEvent, Message } from '../../../src/agent/events.js';
import { MIN, SEC, T0, hexId, ingest, sdkResource, tracesBody, type SpanSpec } from '../../support/otlp-json.js';

/**
 * The OpenTelemetry Demo with its cart service down, in the shapes its SDKs send: the Node.js
 * frontend's add-to-cart requests fail with 500 because its gRPC calls to oteldemo.CartService/AddItem
 * answer UNAVAILABLE (net.peer.name cart, rpc.grpc.status_code 14), and the cart service sends
 * nothing at all. The failing checkouts must be traced to the missing cart service, not to frontend.
 */
const END = T0 + 40n * MIN;

async function demoWithoutCart(store: ColonyStore): Promise<void> {
  const spans: SpanSpec[] = [];
  const catalog: SpanSpec[] = [];
  let n = 0;
  for (let s = 0; s < 40 * 60; s += 4) {
    const at = T0 + BigInt(s) * SEC;
    const trace = hexId(16, ++n);
    // Product pages work all along: frontend -> product-catalog.
    spans.push({ traceId: trace, spanId: hexId(8, n * 10), name: 'GET /api/products/{productId}', startNs: at, durationMs: 12, attributes: { 'http.method': 'GET', 'http.route': '/api/products/{productId}', 'http.status_code': 200 } });
    spans.push({ traceId: trace, spanId: hexId(8, n * 10 + 1), parentSpanId: hexId(8, n * 10), kind: 3, name: 'oteldemo.ProductCatalogService/GetProduct', startNs: at + 1_000_000n, durationMs: 8, attributes: { 'rpc.system': 'grpc', 'rpc.service': 'oteldemo.ProductCatalogService', 'rpc.method': 'GetProduct', 'rpc.grpc.status_code': 0, 'net.peer.name': 'product-catalog' } });
    catalog.push({ traceId: trace, spanId: hexId(8, n * 10 + 2), parentSpanId: hexId(8, n * 10 + 1), name: 'oteldemo.ProductCatalogService/GetProduct', startNs: at + 2_000_000n, durationMs: 5, attributes: { 'rpc.system': 'grpc', 'rpc.service': 'oteldemo.ProductCatalogService', 'rpc.method': 'GetProduct', 'rpc.grpc.status_code': 0 } });
    // Add to cart: fine until cart goes away 25 minutes in.
    const down = s >= 25 * 60;
    const cartTrace = hexId(16, ++n);
    spans.push({ traceId: cartTrace, spanId: hexId(8, n * 10), name: 'POST /api/cart', startNs: at + 2n * SEC, durationMs: down ? 3 : 15, status: down ? 2 : 0, attributes: { 'http.method': 'POST', 'http.route': '/api/cart', 'http.status_code': down ? 500 : 200 } });
    spans.push({
      traceId: cartTrace, spanId: hexId(8, n * 10 + 1), parentSpanId: hexId(8, n * 10), kind: 3, name: 'oteldemo.CartService/AddItem', startNs: at + 2n * SEC + 1_000_000n, durationMs: down ? 1 : 10,
      status: down ? 2 : 0, statusMessage: down ? '14 UNAVAILABLE: No connection established' : '',
      attributes: { 'rpc.system': 'grpc', 'rpc.service': 'oteldemo.CartService', 'rpc.method': 'AddItem', 'rpc.grpc.status_code': down ? 14 : 0, 'net.peer.name': 'cart', 'net.peer.port': 7070 },
    });
  }
  await ingest(store, 'traces', tracesBody(sdkResource('frontend'), '@opentelemetry/instrumentation-grpc', spans));
  await ingest(store, 'traces', tracesBody(sdkResource('product-catalog', { 'telemetry.sdk.language': 'go' }), 'go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc', catalog));
}

describe('a callee that sends no telemetry (the OpenTelemetry Demo without its cart service)', () => {
  it('the summary ranks cart first and says it sends nothing; the triage names it as the root cause', async () => {
    const store = await ColonyStore.open({ path: ':memory:' });
    try {
      await demoWithoutCart(store);
      const hub = await ToolHub.connect([{ name: 'colony', server: createColonyServer(createToolContext(store, () => END)) }]);
      try {
        const events: AgentEvent[] = [];
        const messages: Message[] = [];
        for await (const ev of runTurn({ provider: new TriageProvider(), hub, system: '', messages, question: 'why do add-to-cart requests fail?' })) events.push(ev);
        const summary = events.find((e) => e.type === 'tool_call_finished' && e.tool === 'coral_query_summary') as unknown as { structured: { standOut: { service: string; status: string; signals: string[]; explainedBy: string | null }[] } };
        const [first, second] = summary.structured.standOut;
        expect(first.service).toBe('cart');
        expect(first.status).toBe('silent');
        expect(first.signals[0]).toMatch(/^sends no telemetry; calls to it fail anew from frontend \(\+\d+\): it is down, unreachable or not instrumented$/);
        expect(second).toMatchObject({ service: 'frontend', explainedBy: 'cart' });
        const calls = events.filter((e) => e.type === 'tool_call_started') as { tool: string; args: Record<string, unknown> }[];
        // The silent callee shows only in its callers' failing calls: those are the traces read.
        expect(calls.find((c) => c.tool === 'coral_query_traces')?.args).toMatchObject({ service: 'frontend', order: 'errors' });
        const answer = (events.find((e) => e.type === 'message_end') as { text: string }).text;
        expect(answer).toMatch(/^Root cause \(most likely\): cart:/m);
        expect(answer).toMatch(/Recommendation: check that cart is running and reachable from its callers/);
      } finally {
        await hub.close();
      }
    } finally {
      await store.close();
    }
  });
});
