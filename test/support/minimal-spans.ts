/**
 * A traces export of `count` minimal spans in protobuf, written straight into one buffer: the
 * generic writer (otlp-proto.ts) builds number arrays, far too slow and large for the hundreds of
 * thousands of spans the memory tests send. Each span has a trace id, a span id, a one-letter name
 * and its two times (~51 bytes); one resource (service.name = `service`) and one scope hold them.
 * Span i has span id i + 1 and trace id i / 4 + 1 (four spans a trace), times from `startNs`.
 */
const SPAN_BYTES = 49;

function varintInto(out: Buffer, at: number, v: number): number {
  let n = v;
  while (n >= 0x80) {
    out[at++] = (n % 128) | 0x80;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

const varintLength = (v: number) => (v < 2 ** 7 ? 1 : v < 2 ** 14 ? 2 : v < 2 ** 21 ? 3 : v < 2 ** 28 ? 4 : 5);

export function minimalSpansExport(count: number, service: string, startNs: bigint): Buffer {
  const serviceAttr = Buffer.concat([Buffer.from([0x0a, 12]), Buffer.from('service.name'), Buffer.from([0x12, service.length + 2, 0x0a, service.length]), Buffer.from(service)]);
  const resource = Buffer.concat([Buffer.from([0x0a, serviceAttr.length + 2, 0x0a, serviceAttr.length]), serviceAttr]);
  const scopeLength = count * (2 + SPAN_BYTES);
  const groupLength = resource.length + 1 + varintLength(scopeLength) + scopeLength;
  const out = Buffer.alloc(1 + varintLength(groupLength) + groupLength);
  let at = 0;
  out[at++] = 0x0a; // ExportTraceServiceRequest.resource_spans
  at = varintInto(out, at, groupLength);
  at += resource.copy(out, at); // ResourceSpans.resource
  out[at++] = 0x12; // ResourceSpans.scope_spans (no scope: name and version empty)
  at = varintInto(out, at, scopeLength);
  for (let i = 0; i < count; i++) {
    out[at++] = 0x12; // ScopeSpans.spans
    out[at++] = SPAN_BYTES;
    out[at++] = 0x0a; // trace_id
    out[at++] = 16;
    out.writeUInt32BE(Math.floor(i / 4) + 1, at + 12);
    at += 16;
    out[at++] = 0x12; // span_id
    out[at++] = 8;
    out.writeUInt32BE(i + 1, at + 4);
    at += 8;
    out[at++] = 0x2a; // name
    out[at++] = 1;
    out[at++] = 0x73; // 's'
    const start = startNs + BigInt(i) * 1000n;
    out[at++] = 0x39; // start_time_unix_nano, fixed64
    out.writeBigUInt64LE(start, at);
    at += 8;
    out[at++] = 0x41; // end_time_unix_nano, fixed64
    out.writeBigUInt64LE(start + 500_000n, at);
    at += 8;
  }
  if (at !== out.length) throw new Error(`minimal spans export: wrote ${at} of ${out.length} bytes`);
  return out;
}
