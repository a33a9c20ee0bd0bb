import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { normalizeTraces } from '../../../src/colony/otlp/normalize.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { T0, beylaResource, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

let store: ColonyStore;
beforeEach(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
});
afterEach(async () => {
  await store.close();
});

const ids = { traceId: hexId(16, 1, 9), spanId: hexId(8, 1, 9) };
const sdk = () => normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(tracesBody(sdkResource('checkout'), '@opentelemetry/instrumentation-http', [{ ...ids, name: 'POST /api/checkout', startNs: T0, durationMs: 120, attributes: { 'app.order_id': 'o-1' } }]))))).batch;
const ebpf = (name = 'POST /api/*') => normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(tracesBody(beylaResource('checkout'), 'github.com/grafana/beyla', [{ ...ids, name, startNs: T0 + 1000n, durationMs: 121 }]))))).batch;

async function stored(): Promise<{ source: string; name: string; attributes: Record<string, unknown> }[]> {
  const rows = await store.db.query<{ source: string; name: string; attributes: string }>('SELECT source, name, attributes::VARCHAR AS attributes FROM otel_traces');
  return rows.map((r) => ({ ...r, attributes: JSON.parse(r.attributes) as Record<string, unknown> }));
}

describe('twin order: the SDK span stays canonical whatever arrives first, the eBPF evidence kept', () => {
  for (const order of ['sdk first', 'ebpf first'] as const) {
    it(order, async () => {
      const batches = order === 'sdk first' ? [sdk(), ebpf()] : [ebpf(), sdk()];
      for (const b of batches) await store.write(b);
      const rows = await stored();
      expect(rows).toHaveLength(1);
      expect(rows[0].source).toBe('otlp');
      expect(rows[0].name).toBe('POST /api/checkout');
      expect(rows[0].attributes['app.order_id']).toBe('o-1');
      expect(rows[0].attributes['coral.ebpf_twin']).toMatchObject({ name: 'POST /api/*', status_code: 'UNSET' });
    });
  }

  for (const order of ['sdk first', 'ebpf first'] as const) {
    it(`both in one batch (${order}): the SDK copy wins, the eBPF one kept as its evidence`, async () => {
      const b = sdk();
      if (order === 'sdk first') b.spans.push(...ebpf().spans);
      else b.spans.unshift(...ebpf().spans);
      await store.write(b);
      const rows = await stored();
      expect(rows.map((r) => [r.source, r.name])).toEqual([['otlp', 'POST /api/checkout']]);
      expect(rows[0].attributes['coral.ebpf_twin']).toMatchObject({ name: 'POST /api/*' });
      // Sent again alone, the SDK span keeps the evidence its first batch brought.
      await store.write(sdk());
      expect((await stored())[0].attributes['coral.ebpf_twin']).toMatchObject({ name: 'POST /api/*' });
    });
  }

  it('a re-send equal to what is stored leaves the stored row as it was', async () => {
    await store.write(sdk());
    const before = await store.db.query<{ r: bigint }>('SELECT rowid AS r FROM otel_traces');
    await store.write(sdk());
    expect(await store.db.query<{ r: bigint }>('SELECT rowid AS r FROM otel_traces')).toEqual(before);
    expect(await stored()).toHaveLength(1);
  });

  it('keeps the evidence when the SDK span is sent again, and adds none where there was no twin', async () => {
    for (const b of [sdk(), ebpf(), sdk()]) await store.write(b);
    expect((await stored())[0].attributes['coral.ebpf_twin']).toMatchObject({ name: 'POST /api/*' });
    await store.db.admin.run('DELETE FROM otel_traces');
    for (const b of [sdk(), sdk()]) await store.write(b);
    expect(Object.keys((await stored())[0].attributes)).toEqual(['app.order_id']);
  });

  it('a re-send of the same source replaces it as before', async () => {
    await store.write(ebpf('first'));
    await store.write(ebpf('second'));
    expect((await stored()).map((r) => r.name)).toEqual(['second']);
  });
});
