/**
 * Decode workers: export bodies are decoded, normalised and encoded into columnar batches on worker
 * threads (decode-worker.ts), so that the thread serving HTTP and filling DuckDB's chunks does only
 * that. A body goes over by transfer and the batch comes back the same way: no row object crosses
 * (structured-cloning rows cost 3.4-10 us per span, measured, issue 16).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type ColumnarBatch, segmentBuffers } from '../store/columnar-batch.js';
import type { DecodedExport, ExportDecoder } from './decoded-export.js';
import { IngestError, decodeColumnar, storeUnavailable } from './ingest.js';
import { OtlpDecodeError, type Signal } from './model.js';
import type { DecodeReply, DecodeRequest, RecycleRequest } from './decode-protocol.js';
import type { Encoding } from './responses.js';
import { workerSource } from '../../core/worker-source.js';

/** The worker's code, bundled, in the built CLI (scripts/build.mjs); absent when running from sources. */
declare const __CORAL_DECODE_WORKER__: string | undefined;

/**
 * Two workers where there are two cores. With one, 8 senders of JSON kept it busy only ~88% of the
 * time (exports wait for their commit, and the worker for the next export) and it capped ingest at
 * 72-80k spans/s; with two, 82-86k. Protobuf, which decodes in half the time, does as well with
 * either (105-125k spans/s; measured on 2 cores, issue 16).
 */
export const DEFAULT_DECODE_WORKERS = Math.min(2, availableParallelism());

/**
 * How large a decode worker's young generation may grow. An export's decoded objects die once its
 * batch is encoded, but when they outgrow the default young generation (48 MB: 16 MB semi-spaces;
 * an 8192-span JSON export, as collectors send, parses into tens of megabytes) they are promoted
 * and left to full mark-compacts. With 192 MB, 8192-span exports cost ~13.4-14.4 us of CPU per span
 * to decode instead of ~16.4 (JSON), ~8.4 instead of ~8.9 (protobuf); 512-span exports, the SDKs'
 * batch, cost the same; the process holds up to ~100 MB more (measured at load ~8, issue 16).
 */
export const DECODE_WORKER_YOUNG_GENERATION_MB = 192;

interface Waiter {
  resolve: (d: DecodedExport) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Waiter>;
  started: boolean;
}

/** Workers that die before they start this many times in a row leave decoding to the main thread. */
const MAX_FAILED_STARTS = 3;

export class DecodePool implements ExportDecoder {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private failedStarts = 0;
  private closed = false;

  /** `size` workers; 0 decodes on the calling thread (as does a pool whose workers cannot start). */
  constructor(
    readonly size = DEFAULT_DECODE_WORKERS,
    private readonly onError: (err: unknown) => void = logPoolError,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn(i));
  }

  /** The running workers. */
  get workers(): readonly Worker[] {
    return this.slots.map((s) => s.worker);
  }

  /** Exports handed to workers and not yet answered. */
  get inFlight(): number {
    return this.slots.reduce((n, s) => n + s.pending.size, 0);
  }

  /**
   * Decodes one export. `body` is moved to the worker when it owns its whole ArrayBuffer (it must
   * not be used after), copied otherwise. Rejects with OtlpDecodeError for a body that cannot be
   * decoded, and IngestError('unavailable') for rows the store cannot hold or when the worker
   * stopped meanwhile (a new one takes the next exports).
   */
  decode(signal: Signal, encoding: Encoding, body: Buffer): Promise<DecodedExport> {
    const slot = this.pick();
    if (!slot) return new Promise((resolve) => resolve(decodeColumnar(signal, encoding, body)));
    const id = this.nextId++;
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
    const bytes = owned ? new Uint8Array(body.buffer as ArrayBuffer, 0, body.byteLength) : new Uint8Array(body);
    return new Promise<DecodedExport>((resolve, reject) => {
      const request: DecodeRequest = { id, signal, encoding, body: bytes };
      slot.worker.postMessage(request, [bytes.buffer]);
      if (slot.pending.size === 0) slot.worker.ref();
      slot.pending.set(id, { resolve, reject });
    });
  }

  /**
   * Hands a decoded batch's segment memory back to a worker once its rows are stored (or refused):
   * the batch must not be used after.
   */
  recycle(batch: ColumnarBatch): void {
    const slot = this.pick();
    if (!slot) return;
    const recycle = segmentBuffers(batch);
    slot.worker.postMessage({ recycle } satisfies RecycleRequest, recycle);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /** The worker with the fewest exports in hand; none when decoding stays on this thread. */
  private pick(): Slot | null {
    if (this.slots.length === 0 || this.failedStarts >= MAX_FAILED_STARTS) return null;
    let best = this.slots[0];
    for (const s of this.slots) if (s.pending.size < best.pending.size) best = s;
    return best;
  }

  private spawn(index: number): Slot {
    const worker = new Worker(workerSource(typeof __CORAL_DECODE_WORKER__ === 'string' ? __CORAL_DECODE_WORKER__ : undefined, new URL('./decode-worker.ts', import.meta.url)), {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: DECODE_WORKER_YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, pending: new Map(), started: false };
    // Referenced only while it holds an export: an idle pool never keeps the process alive.
    worker.unref();
    worker.on('online', () => {
      slot.started = true;
      this.failedStarts = 0;
    });
    worker.on('message', (r: DecodeReply) => {
      const w = slot.pending.get(r.id);
      if (!w) return;
      slot.pending.delete(r.id);
      if (slot.pending.size === 0) worker.unref();
      if (r.ok) w.resolve({ batch: r.batch, accepted: r.accepted, rejected: r.rejected, reasons: new Map(r.reasons) });
      else w.reject(r.kind === 'invalid' ? new OtlpDecodeError(r.message) : r.kind === 'store' ? storeUnavailable(new RangeError(r.message)) : new Error(r.message));
    });
    worker.on('error', (err) => this.onError(err));
    worker.on('exit', (code) => {
      if (!slot.started) this.failedStarts++;
      const stopped = new IngestError('unavailable', "the colony's decode worker stopped; retry later (details are in the colony log)", { cause: new Error(`decode worker exited with code ${code}`) });
      for (const w of slot.pending.values()) w.reject(stopped);
      slot.pending.clear();
      if (this.closed) return;
      if (this.failedStarts >= MAX_FAILED_STARTS) {
        this.onError(new Error(`the decode worker could not start (${MAX_FAILED_STARTS} attempts); decoding on the main thread`));
        return;
      }
      this.slots[index] = this.spawn(index);
    });
    return slot;
  }
}

function logPoolError(err: unknown): void {
  process.stderr.write(`coral colony: decode worker: ${(err as Error)?.message ?? String(err)}\n`);
}
