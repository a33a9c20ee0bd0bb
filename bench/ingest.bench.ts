/**
 * Ingest throughput end to end over OTLP/HTTP: batches of 512 spans made by the real OpenTelemetry
 * JS SDK and serializers, sent by a separate process into an in-memory colony: protobuf and JSON
 * with 8 parallel streams each, then 16 streams mixing both. Targets (issue 16): >= 100,000 spans/s
 * protobuf, >= 75,000 spans/s JSON, nothing lost. Beside each figure: the load average (the machine
 * is shared), CPU per span of the receiving process (all threads, and per kind of thread: its JS
 * thread, its decode workers, DuckDB's, V8's) and of the sender, and how long the receiver's JS
 * thread was busy (wall clock) per span, the share of the time each decode worker had an export in
 * hand, and the receiving process's peak RSS (the in-memory colony included), all after a warm-up of
 * BENCH_INGEST_WARMUP batches (the decode workers compile their code on them).
 * BENCH_INGEST_DECODE_WORKERS sets the decode workers.
 *
 * First, the protobuf decoders on the same payloads: the colony's own against protobufjs's
 * generated from the vendored opentelemetry-proto definitions, both producing the colony's model.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual, promisify } from 'node:util';
import { ColonyStore } from '../src/colony/store/store.js';
import { DEFAULT_THREADS } from '../src/colony/store/db.js';
import { decodeTracesProto } from '../src/colony/otlp/decode-proto.js';
import { startReceiver } from '../src/colony/otlp/receiver.js';
import { DEFAULT_DECODE_WORKERS } from '../src/colony/otlp/decode-pool.js';
import { jsonTraces, protobufTraces, sdkSpans } from '../test/support/otel-sdk.js';
import { decodeMessagesProtobufjs, decodeTracesProtobufjs } from './protobufjs-traces.js';
import { report } from './report.js';
import { calibrateThreads, noteWorkerThread, threadCpuMs, threadCpuPerSpan, threadIds } from './thread-cpu.js';

/** Spans per export: 512, OpenTelemetry SDKs' default batch; collectors send larger ones (BENCH_INGEST_BATCH=8192). */
const BATCH = Number(process.env.BENCH_INGEST_BATCH ?? 512);
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 200);
const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';
/** DuckDB threads of the colony: 1, as `coral colony serve` defaults to (see DEFAULT_THREADS). */
const THREADS = Number(process.env.BENCH_INGEST_THREADS ?? DEFAULT_THREADS);
/** Batches sent before the measured ones, unmeasured (code compiled and warm): 64, at most a quarter of them. */
const WARMUP = Number(process.env.BENCH_INGEST_WARMUP ?? 64);
/** Decode worker threads of the receiver (0: decode on the JS thread), as `--decode-workers`. */
const DECODE_WORKERS = Number(process.env.BENCH_INGEST_DECODE_WORKERS ?? DEFAULT_DECODE_WORKERS);

const load1 = () => Math.round(loadavg()[0] * 100) / 100;

/**
 * CPU milliseconds of this process's main (JS) thread from /proc (Linux; null elsewhere). Node 20
 * has no per-thread CPU clock, and the JS thread's share is what decides whether it is the limit.
 */
function jsThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
    return ((utime + stime) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return null;
  }
}
/** USER_HZ, 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_S = 100;
const perSpan = (ms: number, spans: number) => Math.round((ms * 1000 * 100) / spans) / 100;

interface Payload {
  file: string;
  contentType: string;
}

async function payloads(dir: string): Promise<{ protobuf: Payload[]; json: Payload[]; protobufBodies: Buffer[] }> {
  const protobuf: Payload[] = [];
  const json: Payload[] = [];
  const protobufBodies: Buffer[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const spans = await sdkSpans(BATCH, `svc-${b % 16}`);
    const pb = protobufTraces(spans);
    protobufBodies.push(pb);
    writeFileSync(join(dir, `protobuf-${b}`), pb);
    writeFileSync(join(dir, `json-${b}`), jsonTraces(spans));
    protobuf.push({ file: join(dir, `protobuf-${b}`), contentType: PROTOBUF });
    json.push({ file: join(dir, `json-${b}`), contentType: JSON_TYPE });
  }
  return { protobuf, json, protobufBodies };
}

/** CPU microseconds per span of `decode` over all bodies, after one warm-up pass. */
function decodeCost(bodies: Buffer[], decode: (b: Buffer) => unknown, rounds = 3): number {
  for (const b of bodies) decode(b);
  const cpu = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const b of bodies) decode(b);
  const used = process.cpuUsage(cpu);
  return Math.round(((used.user + used.system) / (rounds * bodies.length * BATCH)) * 100) / 100;
}

function compareDecoders(bodies: Buffer[]): void {
  const sample = bodies.slice(0, 50);
  const identical = sample.every((b) => isDeepStrictEqual(decodeTracesProto(b), decodeTracesProtobufjs(b)));
  const loadBefore = load1();
  // Interleaved twice, so that a change of load mid-run hits both decoders alike.
  const hand = [decodeCost(sample, decodeTracesProto), decodeCost(sample, decodeTracesProto)];
  const generated = [decodeCost(sample, decodeTracesProtobufjs), decodeCost(sample, decodeTracesProtobufjs)];
  const messagesOnly = decodeCost(sample, decodeMessagesProtobufjs);
  report({
    bench: 'otlp_protobuf_decode',
    spans_per_round: sample.length * BATCH,
    hand_decoder_cpu_us_per_span: Math.min(...hand),
    protobufjs_cpu_us_per_span: Math.min(...generated),
    protobufjs_messages_only_cpu_us_per_span: messagesOnly,
    same_output: identical,
    faster: Math.min(...hand) <= Math.min(...generated) ? 'hand' : 'protobufjs',
    loadavg_1m: [loadBefore, load1()],
  });
}

/** BENCH_INGEST_RUNS=protobuf,json,mixed picks runs (default all); BENCH_INGEST_DECODERS=0 skips the decoder comparison. */
const RUNS = (process.env.BENCH_INGEST_RUNS ?? 'protobuf,json,mixed').split(',');

async function run(name: string, items: Payload[], concurrency: number, target: number): Promise<void> {
  if (!RUNS.some((r) => name.endsWith(`_${r}`))) return;
  const store = await ColonyStore.open({ path: ':memory:', threads: THREADS, memoryLimit: '4GB' });
  const before = threadIds();
  const receiver = await startReceiver({ sink: store, port: 0, decodeWorkers: DECODE_WORKERS });
  // The threads the receiver started are its decode workers.
  for (const tid of threadIds()) if (!before.has(tid)) noteWorkerThread(tid);
  const send = async (list: Payload[]) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'ingest-sender.ts'), `${receiver.url}/v1/traces`, String(concurrency), ...list.map((p) => `${p.file}=${p.contentType}`)],
      { maxBuffer: 1 << 20 },
    );
    return JSON.parse(stdout) as { elapsedMs: number; failures: number; cpuMs: number };
  };
  // Unmeasured: the decoders' code is compiled, and warmed up, on these.
  const warm = items.slice(0, Math.min(WARMUP, Math.floor(items.length / 4)));
  const measured = items.slice(warm.length);
  const warmFailures = warm.length > 0 ? (await send(warm)).failures : 0;
  const storedBefore = (await store.counts()).spans;
  const loadBefore = load1();
  const cpu = process.cpuUsage();
  const jsCpu = jsThreadCpuMs();
  const elu = performance.eventLoopUtilization();
  const threads = threadCpuMs();
  const workerElu = receiver.decoders?.workers.map((w) => w.performance.eventLoopUtilization()) ?? [];
  let rssPeak = process.memoryUsage.rss();
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20);
  const { elapsedMs, failures: measuredFailures, cpuMs } = await send(measured);
  clearInterval(sampler);
  const busy = performance.eventLoopUtilization(elu);
  const workersBusy = (receiver.decoders?.workers ?? []).map((w, i) => Math.round(w.performance.eventLoopUtilization(workerElu[i]).utilization * 100) / 100);
  const used = process.cpuUsage(cpu);
  const jsCpuAfter = jsThreadCpuMs();
  const threadsAfter = threadCpuMs();
  const failures = warmFailures + measuredFailures;
  const stored = (await store.counts()).spans;
  await receiver.close();
  await store.close();
  const expected = BATCH * items.length;
  const measuredSpans = BATCH * measured.length;
  const spansPerSec = Math.round((stored - storedBefore) / (elapsedMs / 1000));
  report({
    bench: name,
    spans: stored,
    expected,
    lost: expected - stored,
    failures,
    batch: BATCH,
    warmup_batches: warm.length,
    concurrency,
    duckdb_threads: THREADS,
    decode_workers: DECODE_WORKERS,
    protobuf_batches: measured.filter((p) => p.contentType === PROTOBUF).length,
    json_batches: measured.filter((p) => p.contentType === JSON_TYPE).length,
    elapsed_ms: Math.round(elapsedMs),
    spans_per_sec: spansPerSec,
    target_spans_per_sec: target,
    meets_target: spansPerSec >= target && stored === expected && failures === 0,
    receiver_cpu_us_per_span: perSpan((used.user + used.system) / 1000, measuredSpans),
    receiver_js_thread_cpu_us_per_span: jsCpu === null || jsCpuAfter === null ? null : perSpan(jsCpuAfter - jsCpu, measuredSpans),
    receiver_cpu_us_per_span_by_thread: threadCpuPerSpan(threads, threadsAfter, measuredSpans),
    receiver_js_busy_us_per_span: perSpan(busy.active, measuredSpans),
    decode_workers_busy: workersBusy,
    receiver_rss_peak_mb: Math.round(rssPeak / 2 ** 20),
    sender_cpu_us_per_span: perSpan(cpuMs, measuredSpans),
    loadavg_1m: [loadBefore, load1()],
  });
}

await calibrateThreads();
const dir = mkdtempSync(join(tmpdir(), 'coral-bench-'));
try {
  const { protobuf, json, protobufBodies } = await payloads(dir);
  if (process.env.BENCH_INGEST_DECODERS !== '0') compareDecoders(protobufBodies);
  await run('ingest_http_protobuf', protobuf, 8, 100_000);
  await run('ingest_http_json', json, 8, 75_000);
  // Half of each, interleaved, so that both kinds are in flight together all along.
  const mixed = protobuf.slice(0, BATCHES / 2).flatMap((p, i) => [p, json[BATCHES / 2 + i]]);
  await run('ingest_http_mixed', mixed, 16, 75_000);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
