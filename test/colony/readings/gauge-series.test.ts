import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS, ask, ingestFixture, removeChdbDir } from './backends.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import { decodeExport } from '../../../src/colony/otlp/ingest.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './backends.js';

/**
 * The hostmetrics receiver's process scraper reports process.memory.usage once per process, each
 * process its own resource (process.pid, no service.name): an OpenTelemetry Demo recording read
 * them as one series and ranked "unknown_service: memory climbs 13 MB -> 2019 MB and resets (83
 * restarts)". Each pid is its own series; a process that appears is not a restart.
 */
const T0 = 1_764_671_400_000_000_000n;
const MIN = 60_000_000_000n;
const NOW = T0 + 60n * MIN;
const FIXTURE = 'hostmetrics-process-memory.jsonl';

/** The same exports with service.name set on every resource, as a resource processor would. */
async function ingestNamed(store: Colony, service: string): Promise<void> {
  for (const line of readFileSync(join(FIXTURES, FIXTURE), 'utf8').split('\n').filter((l) => l.trim() !== '')) {
    const body = JSON.parse(line) as { resourceMetrics: { resource: { attributes: unknown[] } }[] };
    for (const rm of body.resourceMetrics) rm.resource.attributes.push({ key: 'service.name', value: { stringValue: service } });
    await store.write(decodeExport('metrics', 'json', Buffer.from(JSON.stringify(body))).batch);
  }
}

type Change = { service: string; signals: string[] };

afterAll(removeChdbDir, 120_000);

describe.each(BACKENDS)('memory gauges per series ($name)', ({ open }) => {
  it('every process is its own series, and many short-lived processes are no leak', async () => {
    const store = await open();
    try {
      await ingestFixture(store, 'metrics', FIXTURE);
      await ingestNamed(store, 'host-agent');
      const points = await store.gaugePoints({ fromNs: T0, toNs: NOW }, ['process.memory.usage']);
      const unnamed = points.filter((p) => p.service === 'unknown_service');
      // 3 long-lived processes and 2 short-lived ones per scrape (20 scrapes).
      expect(new Set(unnamed.map((p) => p.series)).size).toBe(43);
      expect(new Set(points.filter((p) => p.service === 'host-agent').map((p) => p.series)).size).toBe(43);

      const s = await ask(store, NOW, 'coral_query_summary', { time_range: '30m' });
      const services = s.structured.services as Change[];
      for (const service of ['unknown_service', 'host-agent']) {
        expect(services.find((c) => c.service === service)?.signals.filter((x) => /memory|restart/.test(x))).toEqual([]);
      }
      expect((s.structured.standOut as Change[]).map((c) => c.service)).toEqual([]);
      expect(s.text).not.toMatch(/memory climbs/);
    } finally {
      await store.close();
    }
  }, 120_000);
});
