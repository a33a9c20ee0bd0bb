import { decodeTracesProto } from '../src/colony/otlp/decode-proto.js';
import { decodeTracesJson } from '../src/colony/otlp/decode-json.js';
import { normalizeTraces } from '../src/colony/otlp/normalize.js';
import { jsonTraces, protobufTraces, sdkSpans } from '../test/support/otel-sdk.js';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
const N = 20;
if (!existsSync('/tmp/i16b/pb0')) for (let i = 0; i < N; i++) { const s = await sdkSpans(512, `svc-${i % 16}`); writeFileSync(`/tmp/i16b/pb${i}`, protobufTraces(s)); writeFileSync(`/tmp/i16b/js${i}`, jsonTraces(s)); }
const pb = Array.from({ length: N }, (_, i) => readFileSync(`/tmp/i16b/pb${i}`));
const js = Array.from({ length: N }, (_, i) => readFileSync(`/tmp/i16b/js${i}`));
const which = process.argv[2];
const t = performance.now();
for (let k = 0; k < 30; k++) for (let i = 0; i < N; i++) normalizeTraces(which === 'json' ? decodeTracesJson(js[i]) : decodeTracesProto(pb[i]));
console.error('us/span', ((performance.now() - t) * 1000 / 30 / N / 512).toFixed(2));
