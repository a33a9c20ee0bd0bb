/**
 * OTLP/JSON (as the scenario files hold it) to OTLP protobuf, for replaying over http/protobuf and
 * gRPC. Field numbers are the opentelemetry-proto ones; only what OTLP/JSON can carry is written.
 */
type Json = Record<string, unknown>;

class Writer {
  private chunks: Buffer[] = [];

  private varint(v: bigint): void {
    const bytes: number[] = [];
    let n = BigInt.asUintN(64, v);
    while (n >= 0x80n) {
      bytes.push(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    bytes.push(Number(n));
    this.chunks.push(Buffer.from(bytes));
  }

  private tag(field: number, wire: number): void {
    this.varint(BigInt(field * 8 + wire));
  }

  int(field: number, v: unknown): this {
    if (v === undefined || v === null || v === 0 || v === '0') return this;
    this.tag(field, 0);
    this.varint(BigInt(v as string | number));
    return this;
  }

  /** A oneof member: written even when it is the default (false, 0). */
  present(field: number, v: bigint | number | string | boolean): this {
    this.tag(field, 0);
    this.varint(typeof v === 'boolean' ? (v ? 1n : 0n) : BigInt(v));
    return this;
  }

  bool(field: number, v: unknown): this {
    return v === true ? this.int(field, 1) : this;
  }

  fixed64(field: number, v: unknown): this {
    if (v === undefined || v === null) return this;
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt.asUintN(64, BigInt(v as string | number)));
    this.tag(field, 1);
    this.chunks.push(b);
    return this;
  }

  double(field: number, v: unknown): this {
    if (v === undefined || v === null) return this;
    const b = Buffer.alloc(8);
    b.writeDoubleLE(Number(v));
    this.tag(field, 1);
    this.chunks.push(b);
    return this;
  }

  bytes(field: number, v: Buffer): this {
    this.tag(field, 2);
    this.varint(BigInt(v.length));
    this.chunks.push(v);
    return this;
  }

  string(field: number, v: unknown): this {
    return typeof v === 'string' && v !== '' ? this.bytes(field, Buffer.from(v, 'utf8')) : this;
  }

  hex(field: number, v: unknown): this {
    return typeof v === 'string' && v !== '' ? this.bytes(field, Buffer.from(v, 'hex')) : this;
  }

  message(field: number, v: unknown, encode: (w: Writer, v: Json) => void): this {
    if (v === undefined || v === null) return this;
    const inner = new Writer();
    encode(inner, v as Json);
    return this.bytes(field, inner.finish());
  }

  repeated(field: number, list: unknown, encode: (w: Writer, v: Json) => void): this {
    for (const v of (list as Json[] | undefined) ?? []) this.message(field, v, encode);
    return this;
  }

  packedFixed64(field: number, list: unknown, asDouble: boolean): this {
    const values = (list as (string | number)[] | undefined) ?? [];
    if (values.length === 0) return this;
    const b = Buffer.alloc(values.length * 8);
    values.forEach((v, i) => (asDouble ? b.writeDoubleLE(Number(v), i * 8) : b.writeBigUInt64LE(BigInt(v), i * 8)));
    return this.bytes(field, b);
  }

  finish(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function anyValue(w: Writer, v: Json): void {
  if ('stringValue' in v) w.bytes(1, Buffer.from(String(v.stringValue), 'utf8'));
  else if ('boolValue' in v) w.present(2, v.boolValue === true);
  else if ('intValue' in v) w.present(3, v.intValue as string | number);
  else if ('doubleValue' in v) w.double(4, v.doubleValue);
  else if ('arrayValue' in v) w.message(5, v.arrayValue, (a, x) => a.repeated(1, x.values, anyValue));
  else if ('kvlistValue' in v) w.message(6, v.kvlistValue, (a, x) => a.repeated(1, x.values, keyValue));
  else if ('bytesValue' in v) w.bytes(7, Buffer.from(String(v.bytesValue), 'base64'));
}

function keyValue(w: Writer, kv: Json): void {
  w.string(1, kv.key).message(2, kv.value, anyValue);
}

function scope(w: Writer, s: Json): void {
  w.string(1, s.name).string(2, s.version).repeated(3, s.attributes, keyValue);
}

function resource(w: Writer, r: Json): void {
  w.repeated(1, r.attributes, keyValue);
}

function span(w: Writer, s: Json): void {
  w.hex(1, s.traceId).hex(2, s.spanId).string(3, s.traceState).hex(4, s.parentSpanId).string(5, s.name).int(6, s.kind)
    .fixed64(7, s.startTimeUnixNano).fixed64(8, s.endTimeUnixNano).repeated(9, s.attributes, keyValue)
    .repeated(11, s.events, (e, x) => e.fixed64(1, x.timeUnixNano).string(2, x.name).repeated(3, x.attributes, keyValue))
    .repeated(13, s.links, (l, x) => l.hex(1, x.traceId).hex(2, x.spanId).string(3, x.traceState).repeated(4, x.attributes, keyValue))
    .message(15, s.status, (st, x) => st.string(2, x.message).int(3, x.code));
}

function numberPoint(w: Writer, p: Json): void {
  w.fixed64(2, p.startTimeUnixNano).fixed64(3, p.timeUnixNano);
  if (p.asDouble !== undefined) w.double(4, p.asDouble);
  else if (p.asInt !== undefined) w.fixed64(6, p.asInt);
  w.repeated(7, p.attributes, keyValue);
}

function histogramPoint(w: Writer, p: Json): void {
  w.fixed64(2, p.startTimeUnixNano).fixed64(3, p.timeUnixNano).fixed64(4, p.count ?? 0).double(5, p.sum)
    .packedFixed64(6, p.bucketCounts, false).packedFixed64(7, p.explicitBounds, true).repeated(9, p.attributes, keyValue)
    .double(11, p.min).double(12, p.max);
}

function metric(w: Writer, m: Json): void {
  w.string(1, m.name).string(2, m.description).string(3, m.unit)
    .message(5, m.gauge, (g, x) => g.repeated(1, x.dataPoints, numberPoint))
    .message(7, m.sum, (s, x) => s.repeated(1, x.dataPoints, numberPoint).int(2, x.aggregationTemporality).bool(3, x.isMonotonic))
    .message(9, m.histogram, (h, x) => h.repeated(1, x.dataPoints, histogramPoint).int(2, x.aggregationTemporality));
}

function logRecord(w: Writer, l: Json): void {
  w.fixed64(1, l.timeUnixNano).int(2, l.severityNumber).string(3, l.severityText).message(5, l.body, anyValue)
    .repeated(6, l.attributes, keyValue).hex(9, l.traceId).hex(10, l.spanId).fixed64(11, l.observedTimeUnixNano).string(12, l.eventName);
}

const SIGNALS = {
  traces: { list: 'resourceSpans', scopes: 'scopeSpans', items: 'spans', item: span },
  metrics: { list: 'resourceMetrics', scopes: 'scopeMetrics', items: 'metrics', item: metric },
  logs: { list: 'resourceLogs', scopes: 'scopeLogs', items: 'logRecords', item: logRecord },
} as const;

/** An Export*ServiceRequest in protobuf, from the same request in OTLP/JSON. */
export function otlpJsonToProto(signal: keyof typeof SIGNALS, body: Json): Buffer {
  const s = SIGNALS[signal];
  const w = new Writer();
  w.repeated(1, body[s.list], (r, x) => r.message(1, x.resource, resource)
    .repeated(2, x[s.scopes], (sc, y) => sc.message(1, y.scope, scope).repeated(2, y[s.items], s.item).string(3, y.schemaUrl))
    .string(3, x.schemaUrl));
  return w.finish();
}
