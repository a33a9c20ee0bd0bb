import { OtlpDecodeError } from './model.js';
import { decodeUtf8 } from './utf8-cache.js';

/**
 * A minimal protobuf wire-format reader. OTLP is decoded by hand against field numbers from the
 * opentelemetry-proto specification: no npm package ships the .proto files, and a direct decoder
 * into our model avoids an intermediate object graph on the hot ingest path.
 */
export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

/** A repeated fixed64/double field: packed (LEN) or not (I64), as proto3 allows. */
export const WIRE_FIXED64_REPEATED = -1;

/** The wire type of each known field of one message, for `WireReader.check`. */
export interface MessageSpec {
  message: string;
  wires: number[];
  names: string[];
}

export function messageSpec(message: string, fields: Record<number, [string, number]>): MessageSpec {
  const spec: MessageSpec = { message, wires: [], names: [] };
  for (const [n, [name, wire]] of Object.entries(fields)) {
    spec.wires[Number(n)] = wire;
    spec.names[Number(n)] = name;
  }
  return spec;
}

export class WireReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
    public end = buf.length,
  ) {
    this.pos = start;
  }

  private fail(what: string): never {
    throw new OtlpDecodeError(`truncated or malformed protobuf: ${what} at byte ${this.pos}`);
  }

  /** Varint as a JS number; exact up to 2^53, which covers every count and enum OTLP sends. */
  varint(): number {
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('varint');
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
    return this.fail('varint longer than 10 bytes');
  }

  /** Signed int64 varint (two's complement), as a number when safe, else a decimal string. */
  int64(): number | string {
    const start = this.pos;
    // Fast path: a varint of at most 7 bytes is below 2^49, positive and exact as a number.
    for (let i = 0; i < 7 && this.pos + i < this.end; i++) {
      if (this.buf[this.pos + i] < 0x80) return this.varint();
    }
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail('varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) {
        const signed = BigInt.asIntN(64, result);
        return Number.isSafeInteger(Number(signed)) ? Number(signed) : signed.toString();
      }
      shift += 7n;
    }
    this.pos = start;
    return this.fail('varint longer than 10 bytes');
  }

  /**
   * Refuses a known field sent with the wrong wire type (e.g. resource_spans as a varint): guessing
   * would silently drop or misread the data, so the request is a 400 naming the field.
   */
  check(spec: MessageSpec, field: number, wire: number): void {
    const want = spec.wires[field];
    if (want === undefined || want === wire || (want === WIRE_FIXED64_REPEATED && (wire === WIRE_I64 || wire === WIRE_LEN))) return;
    this.fail(`${spec.message}.${spec.names[field]} (field ${field}) has wire type ${wire}, expected ${want === WIRE_FIXED64_REPEATED ? `${WIRE_I64} or ${WIRE_LEN}` : want}`);
  }

  /** A field tag: field number `tag >>> 3`, wire type `tag & 7`. A number, not an object: this runs per field. */
  tag(): number {
    return this.varint();
  }

  /**
   * Parses a nested message with `parse`, which loops `while (r.pos < r.end)`. The reader's end is
   * narrowed meanwhile, so a corrupt inner length can never read into the enclosing message.
   * The extra argument avoids allocating a closure per nested message on the hot path.
   */
  message<A, T>(parse: (r: WireReader, arg: A) => T, arg: A): T {
    const len = this.varint();
    const end = this.pos + len;
    if (end > this.end) this.fail('length-delimited field');
    const outer = this.end;
    this.end = end;
    const value = parse(this, arg);
    if (this.pos !== end) this.fail('nested message overruns its length');
    this.end = outer;
    return value;
  }

  fixed64(): bigint {
    if (this.pos + 8 > this.end) this.fail('fixed64');
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  sfixed64(): number | string {
    if (this.pos + 8 > this.end) this.fail('sfixed64');
    const v = this.buf.readBigInt64LE(this.pos);
    this.pos += 8;
    return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  }

  fixed64Number(): number {
    return Number(this.fixed64());
  }

  double(): number {
    if (this.pos + 8 > this.end) this.fail('double');
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  fixed32(): number {
    if (this.pos + 4 > this.end) this.fail('fixed32');
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  /** Returns [start, end) of a length-delimited field and skips past it. */
  lengthDelimited(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    const end = start + len;
    if (end > this.end) this.fail('length-delimited field');
    this.pos = end;
    return [start, end];
  }

  string(): string {
    const [s, e] = this.lengthDelimited();
    return decodeUtf8(this.buf, s, e);
  }

  /** Bytes as lowercase hex, or null when the length is not `expectedBytes` (or the id is all zero). */
  hexId(expectedBytes: number): string | null {
    const [s, e] = this.lengthDelimited();
    if (e - s === 0) return '';
    if (e - s !== expectedBytes) return null;
    let zero = true;
    for (let i = s; i < e; i++) if (this.buf[i] !== 0) zero = false;
    return zero ? null : this.buf.toString('hex', s, e);
  }

  base64(): string {
    const [s, e] = this.lengthDelimited();
    return this.buf.toString('base64', s, e);
  }

  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_I64:
        if (this.pos + 8 > this.end) this.fail('fixed64');
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.lengthDelimited();
        return;
      case WIRE_I32:
        if (this.pos + 4 > this.end) this.fail('fixed32');
        this.pos += 4;
        return;
      default:
        this.fail(`unsupported wire type ${wire}`);
    }
  }

  /** Repeated fixed64 / double, accepting packed and unpacked encodings as proto3 requires. */
  repeatedFixed64(wire: number, out: number[], asDouble: boolean): void {
    if (wire === WIRE_LEN) {
      const [s, e] = this.lengthDelimited();
      if ((e - s) % 8 !== 0) this.fail('packed fixed64 length');
      for (let p = s; p < e; p += 8) {
        out.push(asDouble ? this.buf.readDoubleLE(p) : Number(this.buf.readBigUInt64LE(p)));
      }
    } else if (wire === WIRE_I64) {
      out.push(asDouble ? this.double() : this.fixed64Number());
    } else {
      this.fail(`wire type ${wire} for a fixed64 field`);
    }
  }
}

/** A minimal protobuf writer, enough for OTLP responses and google.rpc.Status. */
export class WireWriter {
  private parts: number[] = [];

  private varint(v: number): void {
    let n = v;
    while (n >= 0x80) {
      this.parts.push((n % 128) | 0x80);
      n = Math.floor(n / 128);
    }
    this.parts.push(n);
  }

  uint(field: number, value: number): this {
    if (value === 0) return this;
    this.varint(field * 8 + WIRE_VARINT);
    this.varint(value);
    return this;
  }

  string(field: number, value: string): this {
    if (value === '') return this;
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  bytes(field: number, value: Uint8Array): this {
    this.varint(field * 8 + WIRE_LEN);
    this.varint(value.length);
    for (const b of value) this.parts.push(b);
    return this;
  }

  message(field: number, inner: WireWriter): this {
    return this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return Buffer.from(this.parts);
  }
}
