import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { SEC, T0, hexId, jsonSpan, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';

let store: ColonyStore;
let receiver: RunningReceiver;
const internal: unknown[] = [];

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
  receiver = await startReceiver({ sink: store, port: 0, onError: (e) => internal.push(e) });
});
afterAll(async () => {
  await receiver.close();
  await store.close();
  expect(internal).toEqual([]);
});

/** JSON, with "__1e400__" written as the bare number 1e400 (which JSON.stringify cannot produce). */
const post = (path: string, body: unknown) =>
  fetch(`${receiver.url}${path}`, { method: 'POST', body: JSON.stringify(body).replaceAll('"__1e400__"', '1e400'), headers: { 'content-type': 'application/json' } });

let salt = 100;
const span = (over: Record<string, unknown> = {}, attributes: Record<string, unknown>[] = []) => {
  salt++;
  const base = jsonSpan({ traceId: hexId(16, 1, salt), spanId: hexId(8, 1, salt), name: 'GET /x', startNs: T0, durationMs: 5 });
  return { ...base, attributes: [...(base.attributes as unknown[]), ...attributes], ...over };
};
const status = (value: Record<string, unknown>) => ({ key: 'http.response.status_code', value });

async function countSpans(): Promise<number> {
  return (await store.counts()).spans;
}

describe('partial success to the letter', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['a start time of 2^63', span({ startTimeUnixNano: '9223372036854775808', endTimeUnixNano: '9223372036854775809' }), /start_time_unix_nano out of range/],
    ['a 20-digit JSON timestamp', span({ endTimeUnixNano: '99999999999999999999' }), /end_time_unix_nano out of range/],
    ['a fractional timestamp', span({ startTimeUnixNano: 1.5 }), /malformed start_time_unix_nano/],
    ['an int32 overflow in a status code', span({}, [status({ intValue: '3000000000' })]), /http status code/],
    ['NaN in an integer field', span({}, [status({ doubleValue: 'NaN' })]), /http status code/],
    ['Infinity in an integer field', span({}, [status({ doubleValue: 'Infinity' })]), /http status code/],
    ['2.5 in an integer field', span({}, [status({ doubleValue: 2.5 })]), /http status code/],
    ['1e400 in an integer field', span({}, [{ key: 'rpc.grpc.status_code', value: { intValue: '__1e400__' } }]), /rpc status code/],
  ];
  for (const [what, bad, reason] of cases) {
    it(`rejects the span with ${what}, names the field, stores the rest`, async () => {
      const before = await countSpans();
      const good = [span(), span()];
      const body = tracesBody(sdkResource('checkout'), 'x', []);
      ((body.resourceSpans as { scopeSpans: { spans: unknown[] }[] }[])[0].scopeSpans[0]).spans = [good[0], bad, good[1]];
      const r = await post('/v1/traces', body);
      expect(r.status).toBe(200);
      const out = (await r.json()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
      expect(out.partialSuccess.rejectedSpans).toBe('1');
      expect(out.partialSuccess.errorMessage).toMatch(reason);
      expect((await countSpans()) - before).toBe(2);
    });
  }

  it('rejects log records with severity 1e12, 2.5 or a time of 2^64-1, storing the rest', async () => {
    const before = (await store.counts()).logs;
    const body = logsBody(sdkResource('checkout'), 'x', [
      { timeNs: T0, body: 'ok 1' },
      { timeNs: T0, body: 'huge severity', severityNumber: 1e12 },
      { timeNs: T0, body: 'fractional severity', severityNumber: 2.5 },
      { timeNs: 18446744073709551615n, body: 'far future' },
      { timeNs: T0, body: 'ok 2' },
    ]);
    const r = await post('/v1/logs', body);
    expect(r.status).toBe(200);
    const out = (await r.json()) as { partialSuccess: { rejectedLogRecords: string; errorMessage: string } };
    expect(out.partialSuccess.rejectedLogRecords).toBe('3');
    expect(out.partialSuccess.errorMessage).toMatch(/2 log records with an invalid severity_number/);
    expect(out.partialSuccess.errorMessage).toMatch(/1 log records with time_unix_nano out of range/);
    expect((await store.counts()).logs - before).toBe(2);
  });

  it('answers 16 identical concurrent requests with 200 each and stores them once', async () => {
    const before = await countSpans();
    const body = tracesBody(sdkResource('checkout'), 'x', Array.from({ length: 50 }, (_, i) => ({ traceId: hexId(16, i, 7777), spanId: hexId(8, i, 7777), name: 'GET /same', startNs: T0 + BigInt(i) * SEC, durationMs: 3 })));
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(Array.from({ length: 16 }, () => post('/v1/traces', body)));
      const texts = await Promise.all(replies.map((r) => r.text()));
      expect(replies.map((r) => r.status), texts.join('\n')).toEqual(Array(16).fill(200));
      expect(texts.every((t) => t === '{}')).toBe(true);
    }
    expect((await countSpans()) - before).toBe(50);
  });

  it('a sender of bad values never disturbs 16 normal senders', async () => {
    const before = await countSpans();
    const normal = (k: number) => tracesBody(sdkResource('cart'), 'x', Array.from({ length: 20 }, (_, i) => ({ traceId: hexId(16, k * 100 + i, 8888), spanId: hexId(8, k * 100 + i, 8888), name: 'GET /n', startNs: T0, durationMs: 1 })));
    const poison = tracesBody(sdkResource('evil'), 'x', []);
    ((poison.resourceSpans as { scopeSpans: { spans: unknown[] }[] }[])[0].scopeSpans[0]).spans = cases.map(([, bad]) => bad);
    const replies = await Promise.all([
      ...Array.from({ length: 16 }, (_, k) => post('/v1/traces', normal(k))),
      ...Array.from({ length: 16 }, () => post('/v1/traces', poison)),
    ]);
    expect(replies.map((r) => r.status)).toEqual(Array(32).fill(200));
    expect((await countSpans()) - before).toBe(16 * 20);
  });
});

describe('repeated keys inside one request', () => {
  it('stores a span sent twice in one request once, with a 200', async () => {
    const before = await countSpans();
    const s = span();
    const body = tracesBody(sdkResource('checkout'), 'x', []);
    ((body.resourceSpans as { scopeSpans: { spans: unknown[] }[] }[])[0].scopeSpans[0]).spans = [s, { ...s, name: 'second copy' }];
    const r = await post('/v1/traces', body);
    expect(r.status).toBe(200);
    expect((await countSpans()) - before).toBe(1);
    const [row] = await store.db.query<{ name: string }>(`SELECT name FROM otel_traces WHERE span_id = '${(s as unknown as { spanId: string }).spanId}'`);
    expect(row.name).toBe('second copy');
  });
});
