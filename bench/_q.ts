import { loadavg } from 'node:os';
import { DuckDBDataChunk, DuckDBInstance } from '@duckdb/node-api';
import { decodeTracesProto } from '../src/colony/otlp/decode-proto.js';
import { decodeTracesJson } from '../src/colony/otlp/decode-json.js';
import { normalizeTraces } from '../src/colony/otlp/normalize.js';
import { SPANS } from '../src/colony/store/schema.js';
import { createTableSql } from '../src/colony/store/columns.js';
import { fillChunk } from '../src/colony/store/chunk-append.js';
import { jsonTraces, protobufTraces, sdkSpans } from '../test/support/otel-sdk.js';

const N = 40;
const pb: Buffer[] = [], js: Buffer[] = [];
for (let i = 0; i < N; i++) { const s = await sdkSpans(512, `svc-${i % 16}`); pb.push(protobufTraces(s)); js.push(jsonTraces(s)); }
const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
await conn.run(createTableSql(SPANS));
const a = await conn.createAppender(SPANS.name);
const chunk = DuckDBDataChunk.create(SPANS.columns.map((_, i) => a.columnType(i)));
const rows = pb.map((b) => normalizeTraces(decodeTracesProto(b)).batch.spans);
function cpu(label: string, fn: () => void) {
  fn();
  const c = process.cpuUsage();
  for (let k = 0; k < 3; k++) fn();
  const d = process.cpuUsage(c);
  console.log(label.padEnd(14), 'cpu us/span', ((d.user + d.system) / N / 512 / 3).toFixed(2), 'load', loadavg()[0].toFixed(1));
}
const mode = process.argv[2] ?? 'all';
if (mode === 'all' || mode === 'decode') cpu('decode proto', () => { for (const b of pb) decodeTracesProto(b); });
if (mode === 'all' || mode === 'decode') cpu('decode json', () => { for (const b of js) decodeTracesJson(b); });
const reqs = pb.map((b) => decodeTracesProto(b));
if (mode === 'all' || mode === 'norm') cpu('normalize', () => { for (const r of reqs) normalizeTraces(r); });
if (mode === 'all' || mode === 'fill') cpu('fill', () => { for (const r of rows) { chunk.reset(); fillChunk(chunk, SPANS.columns, r, 0, r.length); } });
