/**
 * A demo load worker (load-off-thread.ts): reads a scenario file, shifts, decodes, normalises and
 * encodes its exports into columnar batches, so the thread that draws the console and fills DuckDB's
 * chunks does only that. It never writes to stdout.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { encodeBatch, transferList } from '../colony/store/columnar-batch.js';
import { exportLinesNewestFirst, streamExportLines } from './export-lines.js';
import { decodedChunks } from './load-chunks.js';
import type { LoadCredit, LoadJob, LoadReply } from './load-protocol.js';

/** Chunks encoded ahead of the store: enough to keep it busy, few enough to hold little memory. */
const CHUNKS_AHEAD = 2;

const port = parentPort;
const job = workerData as LoadJob;
let credits = CHUNKS_AHEAD;
let wake: (() => void) | undefined;
port?.on('message', (_m: LoadCredit) => {
  credits++;
  wake?.();
});

async function run(): Promise<void> {
  if (!port) return;
  const lines = job.newestFirst ? exportLinesNewestFirst(job.name, job.dir) : streamExportLines(job.name, job.dir);
  for await (const c of decodedChunks(lines, BigInt(job.shiftNs), job.newestFirst)) {
    while (credits === 0) await new Promise<void>((r) => (wake = r));
    credits--;
    const batch = encodeBatch(c.batch);
    const reply: LoadReply = { kind: 'chunk', batch, exportsDone: c.exportsDone, rows: c.rows, accepted: c.accepted, rejected: c.rejected };
    port.postMessage(reply, transferList(batch));
  }
  port.postMessage({ kind: 'done' } satisfies LoadReply);
}

run().catch((err: unknown) => port?.postMessage({ kind: 'error', message: (err as Error)?.message ?? String(err) } satisfies LoadReply));
