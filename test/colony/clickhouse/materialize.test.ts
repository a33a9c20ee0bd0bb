import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { type Answer, answer, firstDifference, toolCalls } from './parity.js';
import { openChClient } from '../../../src/colony/store/clickhouse/client.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { DEFAULT_TABLES, qualified } from '../../../src/colony/store/clickhouse/ddl.js';
import { derivedColumns, storedName } from '../../../src/colony/store/clickhouse/derived.js';
import { addColumnsStatement } from '../../../src/colony/store/clickhouse/materialize.js';
import { registryTableName } from '../../../src/colony/store/clickhouse/registry.js';
import { resourceTable } from '../../../src/colony/store/clickhouse/resources.js';
import { loadScenario } from '../../../src/demo/load.js';
import { chdbNotesWithConfig } from './config-open.js';
import { startFakeClickHouse } from './fake-http.js';
import { ingestExport } from '../../../src/colony/otlp/ingest.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';

const DIR = join(tmpdir(), `coral-ch-mat-${process.pid}`);
const END = 1_764_675_000_000_000_000n;
const DB = 'mat';

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('derived columns (pure)', () => {
  it('adds only the missing columns, named by a digest of their rule, with their types', () => {
    const all = derivedColumns('traces', true);
    const have = new Set([storedName(all[0])]);
    const sql = addColumnsStatement('otel', 'otel_traces', 'traces', true, have) ?? '';
    expect(sql.startsWith('ALTER TABLE `otel`.`otel_traces` ADD COLUMN IF NOT EXISTS')).toBe(true);
    expect(sql).not.toContain(storedName(all[0]));
    expect(sql).toContain(`\`${storedName(all[1])}\` Nullable(String) MATERIALIZED`);
    expect(addColumnsStatement('otel', 'otel_traces', 'traces', true, new Set(all.map(storedName)))).toBeNull();
    // A changed rule is a new column, never values an older rule stored.
    expect(storedName({ ...all[1], expr: `${all[1].expr} ` })).not.toBe(storedName(all[1]));
    expect(registryTableName(DEFAULT_TABLES, true)).not.toBe(registryTableName(DEFAULT_TABLES, false));
  });
});

describe.skipIf(!HAVE_CHDB)(`ClickHouse colony with and without stored derived columns${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('answers every tool alike computed at read time and stored, the Collector schema unchanged, the registry following inserts', async () => {
    const target = { kind: 'chdb' as const, dir: DIR, database: DB };
    const plain = await ClickHouseStore.open({ target, create: true, materialize: false });
    const before: Answer[] = [];
    const calls = toolCalls(['payment']);
    try {
      await loadScenario(plain, 'payment-slow-sampled', { endAtNs: END });
      expect(plain.notes.join('\n')).toMatch(/computed at read time .*clickhouse\.materialize is false/);
      expect(plain.notes.join('\n')).toMatch(/registry computed by scanning every table/);
      expect(plain.notes.join('\n')).toMatch(/span resources read with every span \(otel_traces has no stored resource hash\)/);
      for (const c of calls) before.push(await answer(plain, END, c.tool, c.args));
    } finally {
      await plain.close();
    }
    const ch = await openChClient(target);
    const stored = await ClickHouseStore.open({ target });
    try {
      expect(stored.notes.join('\n')).toMatch(/stored as MATERIALIZED coral_\* columns on otel_traces, otel_logs, otel_metrics_gauge, otel_metrics_sum, otel_metrics_histogram/);
      expect(stored.notes.join('\n')).toMatch(/registry kept by materialized views/);
      expect(stored.notes.join('\n')).toMatch(/span resources kept once each in `otel_traces_coral_resources_/);
      const mismatches: string[] = [];
      for (const [i, c] of calls.entries()) {
        const after = await answer(stored, END, c.tool, c.args);
        if (after.text !== before[i].text) mismatches.push(`${c.tool} ${JSON.stringify(c.args)}: text differs\n${before[i].text.slice(0, 400)}\n---\n${after.text.slice(0, 400)}`);
        const d = firstDifference(before[i].structured, after.structured);
        if (d) mismatches.push(`${c.tool}: structured differs at ${d}`);
      }
      expect(mismatches).toEqual([]);

      // The Collector's view of its table: SELECT * leaves MATERIALIZED columns out; its inserts name their columns.
      const traces = qualified(DB, DEFAULT_TABLES.traces);
      const [row] = await ch.query<Record<string, unknown>>(`SELECT * FROM ${traces} LIMIT 1`);
      expect(Object.keys(row).filter((k) => k.startsWith('coral_'))).toEqual([]);
      const t = `fromUnixTimestamp64Nano(toInt64(${END - 1_000_000_000n}))`;
      await ch.command(`INSERT INTO ${traces} (Timestamp, TraceId, SpanId, SpanName, SpanKind, ServiceName, ResourceAttributes, ScopeName, SpanAttributes, Duration, StatusCode)
        VALUES (${t}, 'ab', 'cd', 'GET /x', 'Server', 'newcomer', map('telemetry.sdk.name', 'beyla'), '', map('http.request.method', 'GET', 'http.route', '/x'), 1000000, 'Unset')`);
      const services = await stored.listServices();
      expect(services.find((s) => s.serviceName === 'newcomer')).toEqual({ serviceName: 'newcomer', sources: ['ebpf'], firstSeenNs: END - 1_000_000_000n, lastSeenNs: END - 999_000_000n });
      const [inserted] = await ch.query<{ source: string; route: string | null }>(
        `SELECT ${storedName(derivedColumns('traces', true)[0])} AS source, ${storedName(derivedColumns('traces', true).find((c) => c.name === 'http_route')!)} AS route FROM ${traces} WHERE ServiceName = 'newcomer'`,
      );
      expect(inserted).toEqual({ source: 'ebpf', route: '/x' });
      // The resource table follows the Collector's inserts; a resource not there (yet) is read from the span's row.
      const [span] = await stored.getTrace('ab');
      expect(span.resourceAttributes).toEqual({ 'telemetry.sdk.name': 'beyla' });
      await ch.command(`TRUNCATE TABLE ${qualified(DB, resourceTable(DB, DEFAULT_TABLES).name)}`);
      expect((await stored.getTrace('ab'))[0].resourceAttributes).toEqual({ 'telemetry.sdk.name': 'beyla' });
    } finally {
      await stored.close();
      await ch.close();
    }
  }, 600_000);

  it('config clickhouse.materialize: false leaves the tables as the Collector made them', async () => {
    const ch = await openChClient({ kind: 'chdb', dir: DIR, database: 'default' });
    try {
      expect(await chdbNotesWithConfig(DIR, 'clickhouse:\n  materialize: false\n')).toMatch(/computed at read time .*clickhouse\.materialize is false/);
      const [cols] = await ch.query<{ n: number }>(`SELECT toInt32(count()) AS n FROM system.columns WHERE database = 'otel' AND startsWith(name, 'coral_')`);
      expect(cols.n).toBe(0);
    } finally {
      await ch.close();
    }
  });

  it('computes at read time, and says why, for a user who may not alter the tables', async () => {
    const ch = await openChClient({ kind: 'chdb', dir: DIR, database: 'default' });
    const writer = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'ro' }, create: true, materialize: false });
    const server = await startFakeClickHouse(ch, { user: 'reader', password: 'r', readonly: true });
    try {
      await loadScenario(writer, 'healthy', { endAtNs: END });
      const reader = await ClickHouseStore.open({ target: { kind: 'http', url: server.url, username: 'reader', database: 'ro' }, password: 'r' });
      try {
        expect(reader.notes.join('\n')).toMatch(/computed at read time \(slower\) for otel_traces, otel_logs, otel_metrics_gauge, otel_metrics_sum, otel_metrics_histogram: .*readonly mode/);
        expect(reader.notes.join('\n')).toMatch(/registry computed by scanning every table \(.*readonly mode/);
        expect((await reader.listServices()).map((s) => s.serviceName)).toEqual((await writer.listServices()).map((s) => s.serviceName));
        expect(await answer(reader, END, 'coral_query_summary', {})).toEqual(await answer(writer, END, 'coral_query_summary', {}));
      } finally {
        await reader.close();
      }
    } finally {
      await server.close();
      await writer.close();
      await ch.close();
    }
  }, 600_000);

  it('backfills the registry again when an earlier open stopped before marking it complete', async () => {
    const target = { kind: 'chdb' as const, dir: DIR, database: 'regfix' };
    const ch = await openChClient(target);
    try {
      const first = await ClickHouseStore.open({ target, create: true });
      await ingestExport(first, 'traces', 'protobuf', protobufTraces(await sdkSpans(3, 'checkout')));
      await first.close();
      // As if the process had died between creating the views and finishing the backfill.
      const registry = qualified('regfix', registryTableName(DEFAULT_TABLES, true));
      await ch.command(`TRUNCATE TABLE ${registry}`);
      await ch.command(`ALTER TABLE ${registry} MODIFY COMMENT ''`);
      const again = await ClickHouseStore.open({ target });
      try {
        expect((await again.listServices()).map((s) => s.serviceName)).toEqual(['checkout']);
      } finally {
        await again.close();
      }
    } finally {
      await ch.close();
    }
  });
});
