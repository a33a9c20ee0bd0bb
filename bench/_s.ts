import { loadavg } from 'node:os';
import { serialize, deserialize } from 'node:v8';
import { decodeTracesProto } from '../src/colony/otlp/decode-proto.js';
import { normalizeTraces } from '../src/colony/otlp/normalize.js';
import { protobufTraces, sdkSpans } from '../test/support/otel-sdk.js';
const N = 40;
const pb: Buffer[] = [];
for (let i = 0; i < N; i++) pb.push(protobufTraces(await sdkSpans(512, `svc-${i % 16}`)));
const batches = pb.map((b) => normalizeTraces(decodeTracesProto(b)));
function cpu(label: string, fn: () => void) {
  fn(); const c = process.cpuUsage(); for (let k = 0; k < 3; k++) fn(); const d = process.cpuUsage(c);
  console.log(label.padEnd(14), 'cpu us/span', ((d.user + d.system) / N / 512 / 3).toFixed(2), 'load', loadavg()[0].toFixed(1));
}
const ser = batches.map((b) => serialize(b.batch));
console.log('bytes/span', ser[0].length / 512);
cpu('serialize', () => { for (const b of batches) serialize(b.batch); });
cpu('deserialize', () => { for (const s of ser) deserialize(s); });
// columnar: arrays per field
const colz = batches.map((b) => { const o: Record<string, unknown[]> = {}; for (const k of Object.keys(b.batch.spans[0])) o[k] = b.batch.spans.map((r) => (r as never)[k]); return o; });
const cser = colz.map((c) => serialize(c));
cpu('deser columnar', () => { for (const s of cser) deserialize(s); });
