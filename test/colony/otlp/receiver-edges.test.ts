import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { StoreBusyError } from '../../../src/colony/store/busy.js';
import { T0, sdkResource, tracesBody } from '../../support/otlp-json.js';

const LIMIT = 1000;
/** A sink standing in for the store, failing on demand the two ways the store can. */
const sink = {
  mode: 'ok' as 'ok' | 'busy' | 'broken',
  written: 0,
  async write(b: IngestBatch) {
    if (this.mode === 'busy') throw new StoreBusyError('the colony store is busy: 3 batches waiting');
    if (this.mode === 'broken') throw new Error('IO Error: disk full');
    this.written += b.spans.length;
  },
};
let receiver: RunningReceiver;

beforeAll(async () => {
  receiver = await startReceiver({ sink, port: 0, maxBodyBytes: LIMIT, onError: (err) => logged.push((err as Error).message) });
});
const logged: string[] = [];
afterAll(async () => receiver.close());
beforeEach(() => {
  sink.mode = 'ok';
  sink.written = 0;
});

const oneSpan = () => JSON.stringify(tracesBody(sdkResource('checkout'), 'scope', [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'GET /x', startNs: T0, durationMs: 5 }]));
const post = (body: string) => fetch(`${receiver.url}/v1/traces`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('a store that cannot take the batch', () => {
  it.each([
    // The database's words go to the colony's log, never to the sender.
    ['fails', 'broken', /^the store could not take this batch; retry later/],
    ['is busy', 'busy', /the colony store is busy/],
  ] as const)('answers 503 with Retry-After when the store %s, so the exporter retries', async (_label, mode, message) => {
    sink.mode = mode;
    const res = await post(oneSpan());
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const body = (await res.json()) as { message: string };
    expect(body).toMatchObject({ code: 14, message: expect.stringMatching(message) });
    expect(body.message).not.toContain('disk full');
    if (mode === 'broken') expect(logged.at(-1)).toBe('IO Error: disk full');
    sink.mode = 'ok';
    expect((await post(oneSpan())).status).toBe(200);
    expect(sink.written).toBe(1);
  });
});

/** POSTs `chunks` with Transfer-Encoding: chunked (no Content-Length), pausing so each arrives on its own. */
function postChunked(chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(`${receiver.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // Once answered (413, connection: close), writing the rest may fail: that is the point.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    void (async () => {
      for (const c of chunks) {
        if (answered) break;
        req.write(c);
        await sleep(30);
      }
      req.end();
    })();
  });
}

/** A valid JSON export of exactly `bytes` bytes, cut into three chunks. */
function paddedExport(bytes: number): string[] {
  const head = '{"resourceSpans":[],"pad":"';
  const body = `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
  const third = Math.ceil(bytes / 3);
  return [body.slice(0, third), body.slice(third, 2 * third), body.slice(2 * third)];
}

describe('the body limit without a Content-Length', () => {
  it('counts the running total of a chunked body: three chunks under the limit that add up over it get 413', async () => {
    const chunks = paddedExport(1200);
    expect(chunks.every((c) => c.length < LIMIT)).toBe(true);
    const res = await postChunked(chunks);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toMatch(/exceeds the 1000-byte limit/);
  });

  it('accepts a chunked body whose total is within the limit', async () => {
    const res = await postChunked(paddedExport(900));
    expect(res.status).toBe(200);
    expect(res.body).toBe('{}');
  });
});

