import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodedBytesEstimate } from '../../../src/colony/otlp/decoded-bytes.js';
import { InflightBudget } from '../../../src/colony/otlp/limits.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { T0, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

const MiB = 1024 * 1024;

/** A valid traces export of about `bytes` (one span with a long attribute). */
function exportOf(bytes: number, n: number): Buffer {
  return Buffer.from(JSON.stringify(tracesBody(sdkResource('checkout'), 'x', [{ traceId: hexId(16, n, 31), spanId: hexId(8, n, 31), name: 'GET /x', startNs: T0, durationMs: 1, attributes: { pad: 'p'.repeat(bytes) } }])));
}

/** A raw HTTP/1.1 client: the test decides when the headers and the body go, and sees every byte and error. */
function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  let error: Error | null = null;
  socket.on('data', (d) => (received += d.toString('latin1')));
  socket.on('error', (e) => (error = e));
  return {
    socket,
    get received() {
      return received;
    },
    get error() {
      return error;
    },
    head(length: number) {
      socket.write(`POST /v1/traces HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`);
    },
    /** Resolves once the bytes are handed to the kernel (a reset surfaces as an error meanwhile). */
    body(bytes: Buffer): Promise<void> {
      return new Promise((resolve, reject) => socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    },
    responses: () => received.split('HTTP/1.1 ').slice(1).map((r) => Number(r.slice(0, 3))),
  };
}

/** A sink that holds every batch until released, and says when the first arrived. */
function gatedSink() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let arrived!: () => void;
  const first = new Promise<void>((r) => (arrived = r));
  return { open, first, sink: { write: async (_b: IngestBatch) => { arrived(); await gate; } } };
}

let receiver: RunningReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('the in-flight budget is taken before a body is read', () => {
  it('reserves the declared size: a request that does not fit beside an admitted one is refused before its body is sent', async () => {
    const budget = new InflightBudget(MiB);
    const g = gatedSink();
    receiver = await startReceiver({ sink: g.sink, port: 0, maxBodyBytes: 4 * MiB, budget, decodeWorkers: 0 });
    const body = exportOf(700 * 1024, 1);
    const first = rawClient(receiver.port);
    first.head(body.length);
    // Admitted: its declared size is held although not a byte of its body has come.
    await vi.waitFor(() => expect(budget.inUse).toBe(body.length));
    const second = rawClient(receiver.port);
    second.head(body.length);
    await vi.waitFor(() => expect(second.responses()).toEqual([429]), { timeout: 5000 });
    expect(second.received).toMatch(/retry-after: 1/i);
    expect(budget.inUse).toBe(body.length);
    // The refused sender writes its body anyway: it is discarded, and the connection stays usable.
    await second.body(body);
    second.socket.write(`GET /v1/traces HTTP/1.1\r\nhost: 127.0.0.1:${receiver.port}\r\n\r\n`);
    await vi.waitFor(() => expect(second.responses()).toEqual([429, 405]));
    expect(second.error).toBeNull();

    await first.body(body);
    await g.first;
    g.open();
    await vi.waitFor(() => expect(first.responses()).toEqual([200]));
    // Its body, then beside it the batch it decodes into (reserved before decoding).
    expect(budget.peak).toBe(body.length + decodedBytesEstimate('traces', 'json', 1, body.length));
    first.socket.destroy();
    second.socket.destroy();
  });

  it('answers a large refused body with 429, never a reset, while the sender is still writing it', async () => {
    const budget = new InflightBudget(MiB);
    const g = gatedSink();
    receiver = await startReceiver({ sink: g.sink, port: 0, maxBodyBytes: 32 * MiB, budget, decodeWorkers: 0 });
    const small = exportOf(512 * 1024, 1);
    const held = rawClient(receiver.port);
    held.head(small.length);
    await held.body(small);
    await g.first;
    // 16 MiB: far more than the socket buffers hold, so the sender is mid-body when the answer comes.
    const big = exportOf(16 * MiB, 2);
    const refused = rawClient(receiver.port);
    refused.head(big.length);
    await refused.body(big);
    await vi.waitFor(() => expect(refused.responses()).toEqual([429]));
    refused.socket.write(`GET /v1/traces HTTP/1.1\r\nhost: 127.0.0.1:${receiver.port}\r\n\r\n`);
    await vi.waitFor(() => expect(refused.responses()).toEqual([429, 405]));
    expect(refused.error).toBeNull();
    g.open();
    await vi.waitFor(() => expect(held.responses()).toEqual([200]));
    held.socket.destroy();
    refused.socket.destroy();
  });
});
