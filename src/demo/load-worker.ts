/**
 * A demo load worker (load-off-thread.ts): reads a scenario file, shifts, decodes, normalises and
 * encodes its exports into columnar batches, so the thread that draws the console and fills DuckDB's
 * chunks does only that. It never writes to stdout.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { encodeBatch, transferList } from '../colony/store/columnar-batch.js';
import { exportLines } from './export-lines.js';
import { decodedChunks } from './load-chunks.js';
import type { LoadCredit, LoadJob, LoadReply } from './load-protocol.js';

const port = parentPort;
const job = workerData as LoadJob;
let credits = job.ahead;
let wake: (() => void) | undefined;
port?.on('message', (m: LoadCredit) => {
  credits += m.credit;
  wake?.();
});

async function run(): Promise<void> {
  if (!port) return;
  const chunks = decodedChunks(exportLines(job.name, job.dir, job.newestFirst), BigInt(job.shiftNs), job.newestFirst)[Symbol.asyncIterator]();
  for (;;) {
    // Waits before decoding the next chunk, not only before sending it: a held load decodes nothing.
    while (credits === 0) await new Promise<void>((r) => (wake = r));
    const next = await chunks.next();
    if (next.done) break;
    const c = next.value;
    credits--;
    const batch = encodeBatch(c.batch);
    const reply: LoadReply = { kind: 'chunk', batch, exportsDone: c.exportsDone, rows: c.rows, accepted: c.accepted, rejected: c.rejected };
    port.postMessage(reply, transferList(batch));
  }
  port.postMessage({ kind: 'done' } satisfies LoadReply);
}

run().catch((err: unknown) => port?.postMessage({ kind: 'error', message: (err as Error)?.message ?? String(err) } satisfies LoadReply));
