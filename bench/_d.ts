import { readFileSync } from 'node:fs';
import { decodeTracesProto } from '../src/colony/otlp/decode-proto.js';
import { decodeTracesProtobufjs, decodeMessagesProtobufjs } from './protobufjs-traces.js';
import { isDeepStrictEqual } from 'node:util';
const pb = Array.from({ length: 20 }, (_, i) => readFileSync(`/tmp/i16b/pb${i}`));
let same = 0; for (const b of pb) if (isDeepStrictEqual(decodeTracesProto(b), decodeTracesProtobufjs(b))) same++;
console.log('identical', same, '/', pb.length);
const a = decodeTracesProto(pb[0]), b = decodeTracesProtobufjs(pb[0]);
if (!isDeepStrictEqual(a, b)) { console.log(JSON.stringify(a[0].scopes[0].items[0], (k, v) => typeof v === 'bigint' ? v.toString() : v)); console.log(JSON.stringify(b[0].scopes[0].items[0], (k, v) => typeof v === 'bigint' ? v.toString() : v)); }
for (const [label, fn] of [['hand', decodeTracesProto], ['pbjs', decodeTracesProtobufjs], ['pbjs-msg', decodeMessagesProtobufjs], ['hand', decodeTracesProto], ['pbjs', decodeTracesProtobufjs]] as const) {
  for (const x of pb) fn(x);
  const c = process.cpuUsage(); for (let k = 0; k < 5; k++) for (const x of pb) fn(x); const d = process.cpuUsage(c);
  console.log(label, ((d.user + d.system) / 5 / 20 / 512).toFixed(2));
}
