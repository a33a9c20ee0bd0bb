import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../src/colony/store/store.js';
import { type RunningReceiver, startReceiver } from '../../src/colony/otlp/receiver.js';
import { readMeta } from '../../src/demo/files.js';
import { replayScenario } from '../../src/demo/replay.js';
import { nowNs } from '../../src/core/time.js';

let store: ColonyStore;
let receiver: RunningReceiver;

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
  receiver = await startReceiver({ sink: store, port: 0 });
});
afterAll(async () => {
  await receiver.close();
  await store.close();
});

describe('demo replay over OTLP/HTTP', () => {
  it('streams every export into a running colony with fresh timestamps', async () => {
    const started = nowNs();
    const progress: number[] = [];
    const result = await replayScenario('payment-failure', { url: receiver.url, speed: 100_000, onProgress: (p) => progress.push(p.sent) });
    const meta = readMeta('payment-failure');
    expect(result.failed).toEqual([]);
    expect(result.sent).toBe(meta.counts.exports);
    expect(progress.at(-1)).toBe(meta.counts.exports);
    const counts = await store.counts();
    expect(counts.spans).toBe(meta.counts.spans);
    expect(counts.logs).toBe(meta.counts.logs + meta.counts.events);
    // Each export is shifted so that it ends when it is sent: nothing lies in the future or far in the past.
    const [range] = await store.db.query<{ first: bigint; last: bigint }>('SELECT min(start_ns) AS first, max(end_ns) AS last FROM otel_traces');
    expect(range.last).toBeLessThanOrEqual(nowNs() + 1_000_000_000n);
    expect(range.first).toBeGreaterThan(started - 60_000_000_000n);
  });

  it('stops with a clear error when no receiver listens, instead of dropping exports one by one', async () => {
    await expect(replayScenario('healthy', { url: 'http://127.0.0.1:9', speed: 100_000 })).rejects.toThrow(/Cannot reach the OTLP receiver at http:\/\/127\.0\.0\.1:9\/v1\//);
  });

  it('refuses a speed that is not a positive number', async () => {
    await expect(replayScenario('healthy', { url: receiver.url, speed: 0 })).rejects.toThrow(/Invalid speed/);
  });
});
