/**
 * Where an ingested span's CPU goes, stage by stage, without HTTP: decoding (protobuf, JSON),
 * normalising, encoding into columnar segments (what a decode worker does), and storing (the JS
 * thread encoding and copying segments into column vectors, and the whole process, DuckDB's thread
 * included), on an empty colony and on one already holding BENCH_STAGES_EXISTING spans,
 * with the spans table as shipped (no key index) and with a PRIMARY KEY index as before issue 16.
 * CPU microseconds per span, which the machine's other load changes far less than wall clock.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { decodeTracesJson, decodeTracesValue } from '../src/colony/otlp/decode-json.js';
import { decodeTracesProto } from '../src/colony/otlp/decode-proto.js';
import { normalizeTraces } from '../src/colony/otlp/normalize.js';
import { createTableSql } from '../src/colony/store/columns.js';
import { encodeBatch } from '../src/colony/store/columnar-batch.js';
import type { IngestBatch } from '../src/colony/store/rows.js';
import { SPANS } from '../src/colony/store/schema.js';
import { ColonyStore } from '../src/colony/store/store.js';
import { jsonTraces, protobufTraces, sdkSpans } from '../test/support/otel-sdk.js';
import { report } from './report.js';
import { calibrateThreads, threadCpuMs, threadCpuPerSpan } from './thread-cpu.js';

const BATCH = 512;
const BATCHES = Number(process.env.BENCH_STAGES_BATCHES ?? 100);
const EXISTING = Number(process.env.BENCH_STAGES_EXISTING ?? 3_000_000);
const SPANS_RUN = BATCH * BATCHES;
const load1 = () => Math.round(loadavg()[0] * 100) / 100;

/** CPU ms of this process's JS thread (Linux /proc; USER_HZ is 100). */
function jsThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
  return (utime + stime) * 10;
}

const perSpan = (us: number) => Math.round((us / SPANS_RUN) * 100) / 100;

/** CPU us per span of `fn` over every batch, the best of three passes after a warm-up. */
function cpuPerSpan(fn: () => void): number {
  fn();
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const c = process.cpuUsage();
    fn();
    const u = process.cpuUsage(c);
    runs.push(perSpan(u.user + u.system));
  }
  return Math.min(...runs);
}

async function storeCost(batches: IngestBatch[], existing: number, keyIndex: boolean, opts: { quiet?: boolean; file?: boolean } = {}): Promise<void> {
  const dir = opts.file ? mkdtempSync(join(tmpdir(), 'coral-stages-')) : null;
  const store = await ColonyStore.open({ path: dir ? join(dir, 'colony.duckdb') : ':memory:', memoryLimit: '4GB' });
  if (keyIndex) {
    await store.db.admin.run(`DROP TABLE ${SPANS.name}`);
    await store.db.admin.run(createTableSql({ ...SPANS, keyIndex: true }));
  }
  if (existing > 0) {
    // Random ids, as real ones are: an index over sequential ones would be kinder than reality.
    await store.db.admin.run(`INSERT INTO ${SPANS.name} (trace_id, span_id, parent_span_id, name, kind, service_name, source, scope_name, start_ns, end_ns, status_code, attributes, resource_attributes)
      SELECT md5(i::VARCHAR), substr(md5((i + 7)::VARCHAR), 1, 16), '', 'x', 'SERVER', 's', 'otlp', 'sc', i, i + 1, 'UNSET', '{}', '{}' FROM range(${existing}) t(i)`);
    // As after a restart: the writer learns the keys now in the table.
    await store.writer.loadSpanKeys();
  }
  const loadBefore = load1();
  const cpu = process.cpuUsage();
  const js = jsThreadCpuMs();
  const threads = threadCpuMs();
  const started = performance.now();
  let next = 0;
  // Eight writers at once, as eight senders would be.
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < batches.length) await store.write(batches[next++]);
  }));
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const jsUsed = jsThreadCpuMs() - js;
  const threadsAfter = threadCpuMs();
  const stored = (await store.counts()).spans;
  await store.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (opts.quiet) return;
  report({
    bench: 'ingest_stage_store',
    db: dir ? 'file' : ':memory:',
    key_index: keyIndex,
    existing_spans: existing,
    spans: SPANS_RUN,
    lost: existing + SPANS_RUN - stored,
    cpu_us_per_span: perSpan(used.user + used.system),
    js_thread_cpu_us_per_span: perSpan(jsUsed * 1000),
    cpu_us_per_span_by_thread: threadCpuPerSpan(threads, threadsAfter, SPANS_RUN),
    wall_us_per_span: perSpan(wall * 1000),
    loadavg_1m: [loadBefore, load1()],
  });
}

await calibrateThreads();
const protobuf: Buffer[] = [];
const json: Buffer[] = [];
for (let b = 0; b < BATCHES; b++) {
  const spans = await sdkSpans(BATCH, `svc-${b % 16}`);
  protobuf.push(protobufTraces(spans));
  json.push(jsonTraces(spans));
}
const decoded = protobuf.map(decodeTracesProto);
/** Made only once the stages before are measured: held, these rows would slow their collections. */
const encodeCost = () => {
  const normalized = decoded.map((d) => normalizeTraces(d).batch);
  return cpuPerSpan(() => normalized.forEach((b) => encodeBatch(b)));
};
/**
 * decode_json's parts: the body to a string, JSON.parse (V8's native parser, the floor of any
 * JSON path built on it), and the walk of the parsed value into the decoded request.
 */
const jsonParts = () => {
  const text = json.map((b) => b.toString('utf8'));
  const parsed = text.map((t) => JSON.parse(t) as unknown);
  return {
    decode_json_to_string_cpu_us_per_span: cpuPerSpan(() => json.forEach((b) => b.toString('utf8'))),
    decode_json_parse_cpu_us_per_span: cpuPerSpan(() => text.forEach((t) => JSON.parse(t))),
    decode_json_walk_cpu_us_per_span: cpuPerSpan(() => parsed.forEach(decodeTracesValue)),
  };
};
const loadBefore = load1();
report({
  bench: 'ingest_stage_decode_normalize',
  spans: SPANS_RUN,
  decode_protobuf_cpu_us_per_span: cpuPerSpan(() => protobuf.forEach(decodeTracesProto)),
  decode_json_cpu_us_per_span: cpuPerSpan(() => json.forEach(decodeTracesJson)),
  ...jsonParts(),
  normalize_cpu_us_per_span: cpuPerSpan(() => decoded.forEach(normalizeTraces)),
  encode_columnar_cpu_us_per_span: encodeCost(),
  loadavg_1m: [loadBefore, load1()],
});
// A first pass unreported: the JIT warms up on it, not on the first figure.
await storeCost(decoded.slice(0, 20).map((d) => normalizeTraces(d).batch), 0, false, { quiet: true });
// A colony file, as `coral colony serve` keeps by default (write-ahead log, checkpoints).
await storeCost(decoded.map((d) => normalizeTraces(d).batch), 0, false, { file: true });
for (const existing of [0, EXISTING]) {
  for (const keyIndex of [false, true]) await storeCost(decoded.map((d) => normalizeTraces(d).batch), existing, keyIndex);
}
