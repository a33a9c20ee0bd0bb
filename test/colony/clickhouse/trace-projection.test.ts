import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { openChClient } from '../../../src/colony/store/clickhouse/client.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { DEFAULT_TABLES, qualified } from '../../../src/colony/store/clickhouse/ddl.js';
import { derivedColumns, storedName } from '../../../src/colony/store/clickhouse/derived.js';
import { projectionRefusal, staleProjections, traceProjection } from '../../../src/colony/store/clickhouse/trace-projection.js';
import { traceSpansSql } from '../../../src/colony/store/clickhouse/read-spans.js';
import type { ChSchema } from '../../../src/colony/store/clickhouse/views.js';
import { loadScenario } from '../../../src/demo/load.js';
import { chdbNotesWithConfig } from './config-open.js';

const DIR = join(tmpdir(), `coral-ch-proj-${process.pid}`);
const END = 1_764_675_000_000_000_000n;

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** The schema a store opened with coral's stored columns and resource table reads with. */
function storedSchema(database: string): ChSchema {
  return {
    database, tables: DEFAULT_TABLES, logsHaveEventName: true, registryTable: null, resourceTable: 'resources', summaries: false,
    materialized: { traces: true, logs: true, gauge: true, sum: true, histogram: true },
  };
}

describe('trace projection (pure)', () => {
  it('copies the columns a trace read decodes, coral\'s stored source and resource hash included, in trace order, built in the background', () => {
    const p = traceProjection('otel', 'otel_traces');
    const stored = (name: string) => storedName(derivedColumns('traces', true).find((c) => c.name === name)!);
    expect(p.name).toMatch(/^coral_by_trace_[0-9a-f]{8}$/);
    expect(p.add).toMatch(/^ALTER TABLE `otel`\.`otel_traces` ADD PROJECTION IF NOT EXISTS `coral_by_trace_[0-9a-f]{8}` \(SELECT `Timestamp`, `TraceId`, .* ORDER BY TraceId\)$/);
    for (const c of ['SpanAttributes', 'Events.Attributes', 'Links.SpanId', stored('source'), stored('resource_hash')]) expect(p.add).toContain(`\`${c}\``);
    // The resource map comes from the resource table, never from the copy.
    expect(p.add).not.toContain('ResourceAttributes');
    expect(p.materialize).toBe(`ALTER TABLE \`otel\`.\`otel_traces\` MATERIALIZE PROJECTION \`${p.name}\` SETTINGS mutations_sync = 0`);
  });

  it('is on by default in a chdb directory, on a server only when asked for, never when coral may not alter the tables', () => {
    expect(projectionRefusal({ embedded: true })).toBeNull();
    expect(projectionRefusal({ embedded: false })).toBe('a server\'s table gets it only with clickhouse.trace_projection: true');
    expect(projectionRefusal({ embedded: false, traceProjection: true })).toBeNull();
    expect(projectionRefusal({ embedded: true, traceProjection: false })).toBe('clickhouse.trace_projection is false');
    expect(projectionRefusal({ embedded: true, materialize: false })).toBe('clickhouse.materialize is false');
    expect(projectionRefusal({ embedded: false, materialize: false, traceProjection: true })).toBe('clickhouse.materialize is false');
  });

  it('drops only coral\'s trace projections of another definition, never the operator\'s own', () => {
    expect(staleProjections(['coral_by_trace_00000000', 'coral_by_trace_12345678', 'by_span', 'coral_by_trace'], 'coral_by_trace_12345678')).toEqual(['coral_by_trace_00000000']);
    expect(staleProjections([], 'coral_by_trace_12345678')).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHDB)(`ClickHouse trace projection${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('reads a trace from the projection with the same spans as without it, and replaces an older coral projection only', async () => {
    const withIt = { kind: 'chdb' as const, dir: DIR, database: 'proj' };
    const without = { kind: 'chdb' as const, dir: DIR, database: 'noproj' };
    const ch = await openChClient(withIt);
    const a = await ClickHouseStore.open({ target: withIt, create: true });
    const b = await ClickHouseStore.open({ target: without, create: true, traceProjection: false });
    const p = traceProjection('proj', DEFAULT_TABLES.traces);
    try {
      expect(a.notes.join('\n')).toContain(`spans also kept in trace order for trace reads (projection \`${p.name}\``);
      expect(b.notes.join('\n')).toMatch(/no `coral_by_trace_[0-9a-f]{8}` projection: clickhouse\.trace_projection is false/);
      await loadScenario(a, 'payment-slow-sampled', { endAtNs: END });
      await loadScenario(b, 'payment-slow-sampled', { endAtNs: END });
      const projections = async (db: string) => (await ch.query<{ name: string }>(`SELECT name FROM system.projections WHERE database = '${db}' ORDER BY name`)).map((x) => x.name);
      expect(await projections('proj')).toEqual([p.name]);
      expect(await projections('noproj')).toEqual([]);

      const ids = (await a.searchTraces({ range: { fromNs: END - 3_600_000_000_000n, toNs: END }, maxTraces: 5, order: 'errors' })).traces.map((t) => t.traceId);
      expect(ids).toHaveLength(5);
      for (const id of ids) {
        const spans = await a.getTrace(id);
        expect(spans.length).toBeGreaterThan(0);
        expect(spans).toEqual(await b.getTrace(id));
      }
      const plan = async (db: string, bounded: boolean) => (await ch.query<{ explain: string }>(`EXPLAIN ${traceSpansSql(storedSchema(db), ids.slice(0, 1), bounded)}`)).map((r) => r.explain).join('\n');
      for (const bounded of [false, true]) {
        expect(await plan('proj', bounded)).toContain(`ReadFromMergeTree (${p.name})`);
        expect(await plan('noproj', bounded)).toContain('ReadFromMergeTree (noproj.otel_traces)');
      }

      // An older definition of coral's goes at the next open; a projection of the operator's stays.
      const traces = qualified('proj', DEFAULT_TABLES.traces);
      await ch.command(`ALTER TABLE ${traces} ADD PROJECTION coral_by_trace_00000000 (SELECT TraceId, Timestamp ORDER BY TraceId)`);
      await ch.command(`ALTER TABLE ${traces} ADD PROJECTION by_span (SELECT SpanId, TraceId ORDER BY SpanId)`);
      await (await ClickHouseStore.open({ target: withIt })).close();
      expect(await projections('proj')).toEqual(['by_span', p.name]);
    } finally {
      await a.close();
      await b.close();
      await ch.close();
    }
  }, 600_000);

  it('config clickhouse.trace_projection: false keeps a chdb colony without it', async () => {
    const ch = await openChClient({ kind: 'chdb', dir: DIR, database: 'default' });
    try {
      expect(await chdbNotesWithConfig(DIR, 'clickhouse:\n  database: optout\n  trace_projection: false\n')).toMatch(/no `coral_by_trace_[0-9a-f]{8}` projection: clickhouse\.trace_projection is false/);
      const [n] = await ch.query<{ n: number }>(`SELECT toInt32(count()) AS n FROM system.projections WHERE database = 'optout'`);
      expect(n.n).toBe(0);
    } finally {
      await ch.close();
    }
  });
});
