/**
 * What an export may take before and after it is decoded (ingest.ts admitExport, ingestExport with
 * an admission): the item cap, the decoded batch reserved in the in-flight budget before decoding
 * and held as measured once decoded, until stored.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DecodePool } from '../../../src/colony/otlp/decode-pool.js';
import { decodedBytesEstimate } from '../../../src/colony/otlp/decoded-bytes.js';
import { IngestError, ingestExport } from '../../../src/colony/otlp/ingest.js';
import { BudgetHold, InflightBudget } from '../../../src/colony/otlp/limits.js';
import { type ColumnarBatch, batchBytes } from '../../../src/colony/store/columnar-batch.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { minimalSpansExport } from '../../support/minimal-spans.js';

const T0 = 1_700_000_000_000_000_000n;
const decoders = new DecodePool(1);
afterAll(() => decoders.close());

/** What `f` rejects with. */
async function rejection(f: () => Promise<unknown>): Promise<IngestError> {
  try {
    await f();
  } catch (err) {
    expect(err).toBeInstanceOf(IngestError);
    return err as IngestError;
  }
  throw new Error('did not reject');
}

/** A sink taking columnar batches (as the DuckDB store does), recording what the hold had while each batch was being stored. */
function columnarSink(hold: BudgetHold) {
  const seen: { batch: ColumnarBatch; held: number }[] = [];
  const rows: IngestBatch[] = [];
  return {
    seen,
    rows,
    sink: {
      write: async (b: IngestBatch) => {
        rows.push(b);
      },
      writeColumnar: async (p: Promise<ColumnarBatch>) => {
        const batch = await p;
        seen.push({ batch, held: hold.bytes });
      },
    },
  };
}

describe('the item cap', () => {
  it('refuses an export over it as too-large before decoding, and stores nothing', async () => {
    const hold = new BudgetHold(new InflightBudget());
    const s = columnarSink(hold);
    const err = await rejection(() => ingestExport(s.sink, 'traces', 'protobuf', minimalSpansExport(101, 'svc', T0), decoders, { maxItems: 100, hold }));
    expect(err.kind).toBe('too-large');
    expect(err.message).toMatch(/^this export holds 101 items .* more than the 100 the colony takes in one export/);
    expect([s.seen, s.rows]).toEqual([[], []]);
    expect(decoders.inFlight).toBe(0);
  });

  it('takes an export at the cap, and refuses a malformed envelope as invalid with the decoder\'s words', async () => {
    const hold = new BudgetHold(new InflightBudget());
    const s = columnarSink(hold);
    await ingestExport(s.sink, 'traces', 'protobuf', minimalSpansExport(100, 'svc', T0), decoders, { maxItems: 100, hold });
    expect(s.seen.map((x) => x.batch.rows)).toEqual([100]);
    const err = await rejection(() => ingestExport(s.sink, 'logs', 'protobuf', Buffer.from([0x0a, 0x09]), decoders, { maxItems: 100, hold }));
    expect([err.kind, err.message]).toEqual(['invalid', 'cannot decode logs protobuf: truncated or malformed protobuf: length-delimited field at byte 2']);
  });
});

describe('the decoded batch in the in-flight budget', () => {
  it('is reserved before decoding, then held at its measured size (with the body) until stored', async () => {
    const budget = new InflightBudget();
    const hold = new BudgetHold(budget);
    const body = minimalSpansExport(8192, 'svc', T0);
    // Read now: the body moves to the decode worker (its buffer is then empty here).
    const bodyBytes = body.length;
    hold.tryAdd(bodyBytes);
    const s = columnarSink(hold);
    await ingestExport(s.sink, 'traces', 'protobuf', body, decoders, { maxItems: 65_536, hold });
    const [{ batch, held }] = s.seen;
    expect(held).toBe(bodyBytes + batchBytes(batch));
    // A minimal span's batch is ~12 times its protobuf: what the budget did not count before.
    expect(batchBytes(batch)).toBeGreaterThan(10 * bodyBytes);
    // The reservation was the peak: the estimate is an upper bound of the batch.
    expect(budget.peak).toBe(bodyBytes + decodedBytesEstimate('traces', 'protobuf', 8192, bodyBytes));
    expect(budget.peak).toBeGreaterThanOrEqual(held);
  });

  it('refuses an export whose batch does not fit beside the others as over-budget, before decoding it', async () => {
    const budget = new InflightBudget(4 * 1024 * 1024);
    const other = new BudgetHold(budget);
    other.tryAdd(1024 * 1024);
    const hold = new BudgetHold(budget);
    const s = columnarSink(hold);
    const body = minimalSpansExport(8192, 'svc', T0);
    const err = await rejection(() => ingestExport(s.sink, 'traces', 'protobuf', body, decoders, { maxItems: 65_536, hold }));
    expect(err.kind).toBe('over-budget');
    // Refused before it went to the worker: the body is still here.
    expect(body.length).toBeGreaterThan(0);
    expect(err.message).toBe(`this export would decode into about ${decodedBytesEstimate('traces', 'protobuf', 8192, body.length)} bytes, and the colony is already holding 1048576 bytes of exports in flight (limit 4194304, --max-inflight-mb); retry after 1 s`);
    expect(s.seen).toEqual([]);
    // Alone, the same export goes through whatever its size: nothing is starved by a small budget.
    other.releaseAll();
    await ingestExport(s.sink, 'traces', 'protobuf', body, decoders, { maxItems: 65_536, hold });
    expect(s.seen).toHaveLength(1);
    hold.releaseAll();
    expect(budget.inUse).toBe(0);
  });
});

describe('BudgetHold.resize', () => {
  it('holds exactly what it is told, past the capacity too, and gives back the difference', () => {
    const budget = new InflightBudget(100);
    const a = new BudgetHold(budget);
    const b = new BudgetHold(budget);
    expect(a.tryAdd(60)).toBe(true);
    expect(b.tryAdd(30)).toBe(true);
    a.resize(90);
    expect([a.bytes, budget.inUse, budget.peak]).toEqual([90, 120, 120]);
    expect(b.tryAdd(1)).toBe(false);
    a.resize(20);
    expect([a.bytes, budget.inUse]).toEqual([20, 50]);
    a.releaseAll();
    b.releaseAll();
    expect(budget.inUse).toBe(0);
  });
});
