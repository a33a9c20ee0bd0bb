import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS, ask, ingestFixture, removeChdbDir } from './backends.js';
import { formatMs } from '../../../src/core/format.js';

/**
 * The summary's P95 labelled "SDK spans" is the spans' P95: on Envoy's spans it read 177ms, from
 * log buckets, where the spans (service health, coral_query_metrics) said 180ms.
 */
const T0 = 1_764_671_400_000_000_000n;
const MIN = 60_000_000_000n;
const NOW = T0 + 60n * MIN;

afterAll(removeChdbDir, 120_000);

describe.each(BACKENDS)('a P95 said to be from spans is from spans ($name)', ({ open }) => {
  it('the summary shows the exact span P95 of each window, as service health computes it', async () => {
    const store = await open();
    try {
      await ingestFixture(store, 'traces', 'envoy-ingress-unset-status.jsonl');
      const [now] = await store.serviceHealth({ fromNs: NOW - 30n * MIN, toNs: NOW }, 'frontend-proxy');
      const [prev] = await store.serviceHealth({ fromNs: NOW - 60n * MIN, toNs: NOW - 30n * MIN }, 'frontend-proxy');
      expect(now.p95Ms).toBeCloseTo(180, 6);
      const s = await ask(store, NOW, 'coral_query_summary', { time_range: '30m' });
      const c = (s.structured.services as { service: string; p95Ms: number; prevP95Ms: number; basis: string; signals: string[] }[]).find((x) => x.service === 'frontend-proxy');
      expect(c?.basis).toBe('SDK spans');
      expect(c?.p95Ms).toBeCloseTo(now.p95Ms!, 6);
      expect(c?.prevP95Ms).toBeCloseTo(prev.p95Ms!, 6);
      expect(c?.signals).toContain(`P95 ${formatMs(prev.p95Ms!)} -> ${formatMs(now.p95Ms!)}`);
      expect(s.text).toContain(`${formatMs(now.p95Ms!)} [${formatMs(prev.p95Ms!)}] (SDK spans)`);
    } finally {
      await store.close();
    }
  }, 120_000);
});
