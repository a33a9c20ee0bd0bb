/**
 * Writes spans into a colony file, then dies by SIGKILL before DuckDB can checkpoint: what a crash
 * of `colony serve` leaves behind (the rows only in the write-ahead log). Args: FILE SPANS [COMMITS],
 * the spans written in that many commits (one by default).
 */
import { decodeTracesJson } from '../../src/colony/otlp/decode-json.js';
import { normalizeTraces } from '../../src/colony/otlp/normalize.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { SEC, T0, hexId, sdkResource, tracesBody } from './otlp-json.js';

const [path, count, commits = '1'] = process.argv.slice(2);
const store = await ColonyStore.open({ path, threads: 1, memoryLimit: '1GB', checkpointThreshold: '1GB' });
const spans = Array.from({ length: Number(count) }, (_, i) => ({ traceId: hexId(16, i, 7), spanId: hexId(8, i, 7), name: 'GET /x', startNs: T0 + BigInt(i) * SEC, durationMs: 5 }));
const per = Math.ceil(spans.length / Number(commits));
for (let i = 0; i < spans.length; i += per) {
  await store.write(normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(tracesBody(sdkResource('checkout'), 'x', spans.slice(i, i + per)))))).batch);
  await store.writer.flushed();
}
process.kill(process.pid, 'SIGKILL');
