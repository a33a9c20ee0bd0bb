/**
 * The OTLP retry path (issue 39): `coral colony serve` on a file with its default flags (checkpoints
 * past 8 MB of log beside the commits) takes BENCH_RESEND_BATCHES exports of 500 spans from 16
 * parallel streams, half protobuf and half JSON, then the very same exports again, as exporters
 * re-send what they saw no answer for. Figures: spans/s of each round, the ratio (target >= 0.7:
 * re-sending must not cost much more than sending), and, read from the file after serve stopped,
 * rows and distinct keys (both must equal the spans sent) and serve's stop line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ColonyStore } from '../src/colony/store/store.js';
import { jsonTraces, protobufTraces, sdkSpans } from '../test/support/otel-sdk.js';
import { report } from './report.js';
import { buildCli, startServe } from './serve-child.js';

const BATCH = 500;
const BATCHES = Number(process.env.BENCH_RESEND_BATCHES ?? 320);
const STREAMS = 16;

async function payloadFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const spans = await sdkSpans(BATCH, `svc-${b % 16}`);
    const json = b % 2 === 1;
    const file = join(dir, `export-${b}`);
    writeFileSync(file, json ? jsonTraces(spans) : protobufTraces(spans));
    files.push(`${file}=${json ? 'application/json' : 'application/x-protobuf'}`);
  }
  return files;
}

async function send(url: string, files: string[]): Promise<{ elapsedMs: number; failures: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'ingest-sender.ts'), `${url}/v1/traces`, String(STREAMS), ...files], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as { elapsedMs: number; failures: number };
}

buildCli();
const dir = mkdtempSync(join(tmpdir(), 'coral-bench-resend-'));
try {
  const files = await payloadFiles(dir);
  const db = join(dir, 'colony.duckdb');
  const serve = await startServe(db, dir);
  let log = '';
  serve.child.stderr?.removeAllListeners('data');
  serve.child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const first = await send(serve.url, files);
  const again = await send(serve.url, files);
  serve.child.kill('SIGTERM');
  await serve.exited;
  const store = await ColonyStore.open({ path: db, threads: 1, memoryLimit: '1GB' });
  const [row] = await store.db.query<{ rows: bigint; keys: bigint }>('SELECT count(*)::BIGINT AS rows, count(DISTINCT (trace_id, span_id))::BIGINT AS keys FROM otel_traces');
  await store.close();
  const spans = BATCH * BATCHES;
  const rate = (ms: number) => Math.round(spans / (ms / 1000));
  const ratio = Math.round((first.elapsedMs / again.elapsedMs) * 100) / 100;
  report({
    bench: 'resend_serve_file',
    spans,
    streams: STREAMS,
    first_spans_per_sec: rate(first.elapsedMs),
    resend_spans_per_sec: rate(again.elapsedMs),
    resend_to_first: ratio,
    target_ratio: 0.7,
    failures: first.failures + again.failures,
    rows: Number(row.rows),
    distinct_keys: Number(row.keys),
    meets_target: ratio >= 0.7 && Number(row.rows) === spans && Number(row.keys) === spans && first.failures + again.failures === 0,
    stop_line: /stopped; (.*)/.exec(log)?.[1] ?? null,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
