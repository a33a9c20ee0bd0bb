/**
 * Ingest throughput end to end over OTLP/HTTP: protobuf and JSON, batches of 512 spans made by the
 * real OpenTelemetry JS SDK and serializers, sent by a separate process with 8 parallel streams
 * into an in-memory colony. Targets (issue 2): >= 100,000 spans/s protobuf, >= 50,000 spans/s JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ColonyStore } from '../src/colony/store/store.js';
import { startReceiver } from '../src/colony/otlp/receiver.js';
import { jsonTraces, protobufTraces, sdkSpans } from '../test/support/otel-sdk.js';
import { report } from './report.js';

const BATCH = 512;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 200);
const CONCURRENCY = 8;

async function run(encoding: 'protobuf' | 'json', dir: string): Promise<void> {
  const files: string[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const spans = await sdkSpans(BATCH, `svc-${b % 16}`);
    const file = join(dir, `${encoding}-${b}`);
    writeFileSync(file, encoding === 'protobuf' ? protobufTraces(spans) : jsonTraces(spans));
    files.push(file);
  }
  const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '4GB' });
  const receiver = await startReceiver({ sink: store, port: 0 });
  const contentType = encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json';
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'ingest-sender.ts'), `${receiver.url}/v1/traces`, contentType, String(CONCURRENCY), ...files],
    { maxBuffer: 1 << 20 },
  );
  const { elapsedMs, failures } = JSON.parse(stdout) as { elapsedMs: number; failures: number };
  const stored = (await store.counts()).spans;
  await receiver.close();
  await store.close();
  const target = encoding === 'protobuf' ? 100_000 : 50_000;
  const spansPerSec = Math.round(stored / (elapsedMs / 1000));
  report({
    bench: `ingest_http_${encoding}`,
    spans: stored,
    expected: BATCH * BATCHES,
    failures,
    batch: BATCH,
    concurrency: CONCURRENCY,
    elapsed_ms: Math.round(elapsedMs),
    spans_per_sec: spansPerSec,
    target_spans_per_sec: target,
    meets_target: spansPerSec >= target && stored === BATCH * BATCHES,
  });
}

const dir = mkdtempSync(join(tmpdir(), 'coral-bench-'));
try {
  await run('protobuf', dir);
  await run('json', dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
