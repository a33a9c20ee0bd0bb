/**
 * Twins merged (delete and reinsert) while the checkpointer runs beside the commits, as in `colony
 * serve`: a checkpoint renumbers a table's rows once whole row groups are emptied, and the upsert
 * must not act on rowids read before it (issue 39). Whatever the interleaving, each span is stored
 * once, as its SDK copy with the eBPF one as evidence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { emptyBatch } from '../../../src/colony/store/rows.js';
import { batchAt } from '../../support/retention-rows.js';

const T0 = 1_700_000_000_000_000_000n;
const MIN = 60_000_000_000n;
const WRITERS = 16;
const BATCHES = 20;
const SPANS = 500;

const dir = mkdtempSync(join(tmpdir(), 'coral-upsert-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('eBPF spans, then their SDK twins from 16 writers, beside constant checkpoints: each span once', async () => {
  const store = await ColonyStore.open({ path: join(dir, 'c.duckdb'), threads: 1, memoryLimit: '1GB', checkpointThreshold: '256KB', checkpointBeside: true, checkpointLookMs: 5 });
  const spansOf = (w: number, b: number, source: 'ebpf' | 'otlp') => {
    const spans = batchAt((w * BATCHES + b) * SPANS, SPANS, T0 + BigInt(b) * MIN, MIN).spans;
    return Object.assign(emptyBatch(), { spans: spans.map((s) => ({ ...s, source, name: source === 'ebpf' ? 'GET /*' : s.name })) });
  };
  const writeAll = (source: 'ebpf' | 'otlp') =>
    Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
      for (let b = 0; b < BATCHES; b++) await store.write(spansOf(w, b, source));
    }));
  try {
    await writeAll('ebpf');
    await writeAll('otlp');
    expect(store.db.checkpoints).toBeGreaterThan(0);
    const [row] = await store.db.query<{ rows: bigint; keys: bigint; sdk: bigint; evidence: bigint }>(
      `SELECT count(*)::BIGINT AS rows, count(DISTINCT (trace_id, span_id))::BIGINT AS keys, count(*) FILTER (source = 'otlp')::BIGINT AS sdk,
        count(*) FILTER (attributes->>'$."coral.ebpf_twin".name' = 'GET /*')::BIGINT AS evidence FROM otel_traces`,
    );
    const n = WRITERS * BATCHES * SPANS;
    expect({ rows: Number(row.rows), keys: Number(row.keys), sdk: Number(row.sdk), evidence: Number(row.evidence) }).toEqual({ rows: n, keys: n, sdk: n, evidence: n });
  } finally {
    await store.close();
  }
}, 300_000);

it('the same new batch sent twice at once, from 16 writers beside constant checkpoints: each span once', async () => {
  const store = await ColonyStore.open({ path: join(dir, 'twice.duckdb'), threads: 1, memoryLimit: '1GB', checkpointThreshold: '256KB', checkpointBeside: true, checkpointLookMs: 5 });
  try {
    await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
      for (let b = 0; b < BATCHES; b++) {
        const batch = batchAt((w * BATCHES + b) * SPANS, SPANS, T0 + BigInt(b) * MIN, MIN);
        await Promise.all([store.write(batch), store.write(batch)]);
      }
    }));
    expect(store.db.checkpoints).toBeGreaterThan(0);
    const [row] = await store.db.query<{ rows: bigint; keys: bigint; logs: bigint }>(
      'SELECT count(*)::BIGINT AS rows, count(DISTINCT (trace_id, span_id))::BIGINT AS keys, (SELECT count(*) FROM otel_logs)::BIGINT AS logs FROM otel_traces',
    );
    const n = WRITERS * BATCHES * SPANS;
    expect({ rows: Number(row.rows), keys: Number(row.keys), logs: Number(row.logs) }).toEqual({ rows: n, keys: n, logs: n });
    expect(store.ingestTally().newSpans).toBe(n);
  } finally {
    await store.close();
  }
}, 300_000);
