import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { SEC, T0, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

let store: ColonyStore;
let receiver: RunningReceiver;

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:' });
  receiver = await startReceiver({ sink: store, port: 0, maxBodyBytes: 1024 * 1024 });
});
afterAll(async () => {
  await receiver.close();
  await store.close();
});

const post = (path: string, body: unknown) => fetch(`${receiver.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const spans = (n: number, badId = false) => tracesBody(sdkResource('checkout'), 'manual', Array.from({ length: n }, (_, i) => ({
  traceId: badId && i === 0 ? 'xyz' : hexId(16, 900 + i), spanId: hexId(8, 900 + i), name: 'GET /x', startNs: T0 + BigInt(i) * SEC, durationMs: 5,
})));

describe('an API response sent as an OTLP/HTTP export', () => {
  it.each([
    ['/v1/traces', { result: { traces: [{ traceID: 'abc' }] } }],
    ['/v1/metrics', { data: [{ metric: 'x', value: 1 }] }],
    ['/v1/logs', { status: 'success', data: { result: [] } }],
  ])('%s with %j: 400 and why, nothing stored', async (path, body) => {
    const before = await store.counts();
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/this looks like an API response, not an OTLP export/);
    expect(await store.counts()).toEqual(before);
  });

  it('a dump that wraps a real export says which object to send', async () => {
    const res = await post('/v1/traces', { result: spans(2) });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/top-level "result" and no "resourceSpans"; send the object under "result" instead/);
  });

  it('valid exports keep their answers: empty is 200, a bad span is a partial success', async () => {
    expect((await post('/v1/traces', {})).status).toBe(200);
    const partial = await post('/v1/traces', spans(3, true));
    expect(partial.status).toBe(200);
    expect((await partial.json()).partialSuccess.rejectedSpans).toBe('1');
  });
});
