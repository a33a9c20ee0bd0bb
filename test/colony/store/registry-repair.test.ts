import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { normalizeTraces } from '../../../src/colony/otlp/normalize.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { SEC, T0, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

const dir = mkdtempSync(join(tmpdir(), 'coral-registry-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('service registry repair at open', () => {
  it('brings last_seen up to the data after a crash left the registry behind', async () => {
    const path = join(dir, 'colony.duckdb');
    let store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    const spans = [0, 1, 2].map((i) => ({ traceId: hexId(16, i, 4), spanId: hexId(8, i, 4), name: 'GET /x', startNs: T0 + BigInt(i) * 60n * SEC, durationMs: 5 }));
    await store.write(normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(tracesBody(sdkResource('checkout'), 'x', spans))))).batch);
    await store.writer.flushed();
    // What a kill -9 leaves: the rows committed, the registry's last update lost.
    await store.db.admin.run(`UPDATE coral_services SET last_seen_ns = ${T0} WHERE service_name = 'checkout'`);
    await store.db.admin.run(`INSERT INTO otel_traces (trace_id, span_id, parent_span_id, name, kind, service_name, source, scope_name, start_ns, end_ns, status_code, attributes, resource_attributes) VALUES ('${hexId(16, 9, 4)}', '${hexId(8, 9, 4)}', '', 'GET /y', 'SERVER', 'cart', 'otlp', 'x', ${T0}, ${T0 + SEC}, 'UNSET', '{}', '{}')`);
    await store.close();

    store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      const rows = await store.db.query<{ service_name: string; last_seen_ns: bigint; first_seen_ns: bigint }>('SELECT service_name, first_seen_ns, last_seen_ns FROM coral_services ORDER BY service_name');
      expect(rows.map((r) => [r.service_name, BigInt(r.first_seen_ns), BigInt(r.last_seen_ns)])).toEqual([
        ['cart', T0, T0 + SEC],
        ['checkout', T0, T0 + 120n * SEC + 5_000_000n],
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('service registry repair reads only recent rows', () => {
  it('reads from an hour before the registry\'s newest sighting, so a colony\'s age does not slow its open', async () => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'window.duckdb');
    let store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    const insert = (service: string, i: number, startNs: bigint) => store.db.admin.run(`INSERT INTO otel_traces (trace_id, span_id, parent_span_id, name, kind, service_name, source, scope_name, start_ns, end_ns, status_code, attributes, resource_attributes) VALUES ('${hexId(16, i, 4)}', '${hexId(8, i, 4)}', '', 'GET /y', 'SERVER', '${service}', 'otlp', 'x', ${startNs}, ${startNs + SEC}, 'UNSET', '{}', '{}')`);
    await store.db.admin.run(`INSERT INTO coral_services VALUES ('checkout', 'otlp', ${T0}, ${T0 + 7200n * SEC}, '{}')`);
    // Rows the registry never saw: one two hours older than its newest sighting (not read), one recent (read).
    await insert('old-unseen', 1, T0);
    await insert('recent-unseen', 2, T0 + 6000n * SEC);
    await store.close();
    store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB' });
    try {
      const rows = await store.db.query<{ service_name: string }>('SELECT service_name FROM coral_services ORDER BY service_name');
      expect(rows.map((r) => r.service_name)).toEqual(['checkout', 'recent-unseen']);
    } finally {
      await store.close();
    }
  });
});
