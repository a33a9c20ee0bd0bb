import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InflightBudget } from '../../../src/colony/otlp/limits.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { T0, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

const MiB = 1024 * 1024;

/** A sink that holds every batch until released: requests stay in flight as long as the test wants. */
function gatedSink() {
  let open!: () => void;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const stored: IngestBatch[] = [];
  let arrived = 0;
  return { stored, open, arrived: () => arrived, sink: { write: async (b: IngestBatch) => { arrived++; await gate; stored.push(b); } } };
}

/** A valid traces export of about `bytes` (one span with a long attribute). */
function exportOf(bytes: number, n: number): string {
  return JSON.stringify(tracesBody(sdkResource('checkout'), 'x', [{ traceId: hexId(16, n, 31), spanId: hexId(8, n, 31), name: 'GET /x', startNs: T0, durationMs: 1, attributes: { pad: 'p'.repeat(bytes) } }]));
}

let receiver: RunningReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('byte budget for exports in flight (bodies and the batches they decode into)', () => {
  it('admits one request alone whatever its size, and never more than the capacity beside others', () => {
    const b = new InflightBudget(100);
    expect(b.tryAcquire(150)).toBe(true);
    expect(b.tryAcquire(1)).toBe(false);
    b.release(150);
    expect(b.tryAcquire(60)).toBe(true);
    expect(b.tryAcquire(40)).toBe(true);
    expect(b.tryAcquire(1)).toBe(false);
    expect(b.peak).toBe(150);
  });

  it('answers 429 + Retry-After beyond the budget, stays bounded, and serves the retries once memory frees', async () => {
    // Each export holds its body (~1 MiB) and, reserved before decoding, the batch it becomes (its
    // padding is a string in the batch as in the body): ~2 MiB. Three fit in 6 MiB.
    const budget = new InflightBudget(6 * MiB);
    const g = gatedSink();
    receiver = await startReceiver({ sink: g.sink, port: 0, maxBodyBytes: 2 * MiB, budget });
    const send = (body: string | Buffer, headers: Record<string, string> = {}) =>
      fetch(`${receiver!.url}/v1/traces`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': 'application/json', ...headers } });
    // One at a time, each held by the sink or answered before the next: sent together, which of
    // them find room depends on whose body is read first (a body is admitted as it arrives, its
    // batch once it is read), and the test would pin an order.
    const inFlight: Promise<Response>[] = [];
    const settled: Response[] = [];
    for (let i = 0; i < 8; i++) {
      const p = send(exportOf(MiB - 4096, i));
      inFlight.push(p);
      void p.then((r) => settled.push(r));
      await vi.waitFor(() => expect(g.arrived() + settled.length).toBe(i + 1));
    }
    expect(g.arrived()).toBe(3);
    expect(settled.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    expect(settled[0].headers.get('retry-after')).toBe('1');
    expect(await settled[0].text()).toMatch(/exports in flight \(limit 6291456, --max-inflight-mb\); retry after 1 s/);
    // A small gzip body that inflates past what is left is refused before it is inflated.
    const bomb = await send(gzipSync(Buffer.from(exportOf(1.5 * MiB, 99))), { 'content-encoding': 'gzip' });
    expect(bomb.status).toBe(429);
    expect(budget.peak).toBeLessThanOrEqual(budget.capacity);

    g.open();
    const all = await Promise.all(inFlight);
    expect(all.filter((r) => r.status === 200)).toHaveLength(3);
    expect(g.stored).toHaveLength(3);
    expect(budget.inUse).toBe(0);
    // Retried after the wait, the refused exports go through.
    for (const i of [8, 9, 10]) expect((await send(exportOf(MiB - 4096, i))).status).toBe(200);
    expect(budget.inUse).toBe(0);
  });
});

describe('a request alone is never starved by a small budget', () => {
  it('admits a body larger than the budget, plain or gzip, when nothing else is in flight', async () => {
    const budget = new InflightBudget(64 * 1024);
    const stored: IngestBatch[] = [];
    receiver = await startReceiver({ sink: { write: async (b) => { stored.push(b); } }, port: 0, maxBodyBytes: 2 * MiB, budget });
    const body = Buffer.from(exportOf(MiB, 1));
    const plain = await fetch(`${receiver.url}/v1/traces`, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'application/json' } });
    const gz = await fetch(`${receiver.url}/v1/traces`, { method: 'POST', body: new Uint8Array(gzipSync(body)), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect([plain.status, gz.status]).toEqual([200, 200]);
    expect(budget.inUse).toBe(0);
  });
});
