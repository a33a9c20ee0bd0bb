import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from '../../../src/colony/otlp/model.js';
import { WIRE_FIXED64_REPEATED, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader, WireWriter, messageSpec } from '../../../src/colony/otlp/wire.js';
import { varint } from '../../support/otlp-proto.js';

/** A reader over `bytes`, optionally narrowed to end before the buffer does (as inside a nested message). */
const reader = (bytes: number[], end?: number) => new WireReader(Buffer.from(bytes), 0, end ?? bytes.length);
const le64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt.asUintN(64, v));
  return [...b];
};
const leDouble = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return [...b];
};
/** What `fn` throws, as `[class name, message]`, so a RangeError from Buffer never passes for ours. */
function thrown(fn: () => unknown): [string, string] {
  try {
    fn();
  } catch (e) {
    return [(e as Error).constructor.name, (e as Error).message];
  }
  throw new Error('did not throw');
}
const decodeError = (message: string): [string, string] => [OtlpDecodeError.name, `truncated or malformed protobuf: ${message}`];

describe('varint', () => {
  it('reads one to ten bytes, little-endian groups of seven bits', () => {
    expect(reader([0]).varint()).toBe(0);
    expect(reader([0x7f]).varint()).toBe(127);
    expect(reader([0x80, 0x01]).varint()).toBe(128);
    expect(reader([0xac, 0x02]).varint()).toBe(300);
    expect(reader(varint(2 ** 35 + 5)).varint()).toBe(2 ** 35 + 5);
    expect(reader(varint(Number.MAX_SAFE_INTEGER)).varint()).toBe(Number.MAX_SAFE_INTEGER);
    // Ten bytes is the longest legal varint (a negative int64 as uint64); above 2^53 the number is rounded.
    expect(reader(varint(-1n)).varint()).toBe(2 ** 64);
  });

  it('stops at the first byte below 0x80 and leaves the position after it', () => {
    const r = reader([0x96, 0x01, 0x05]);
    expect(r.varint()).toBe(150);
    expect(r.pos).toBe(2);
    expect(r.varint()).toBe(5);
    expect(r.pos).toBe(3);
  });

  it('refuses an eleventh byte, and a varint cut off by the end of the buffer or of a nested message', () => {
    expect(thrown(() => reader([...Array(10).fill(0x80), 0x00]).varint())).toEqual(decodeError('varint longer than 10 bytes at byte 10'));
    expect(thrown(() => reader([0x80, 0x80]).varint())).toEqual(decodeError('varint at byte 2'));
    expect(thrown(() => reader([]).varint())).toEqual(decodeError('varint at byte 0'));
    // The byte after the end belongs to the enclosing message: it must not complete the varint.
    expect(thrown(() => reader([0x80, 0x01], 1).varint())).toEqual(decodeError('varint at byte 1'));
    expect(thrown(() => reader([0x01], 0).varint())).toEqual(decodeError('varint at byte 0'));
  });
});

describe('int64', () => {
  const read = (v: bigint) => reader(varint(v)).int64();

  it('reads short positive varints as numbers', () => {
    expect(read(0n)).toBe(0);
    expect(read(300n)).toBe(300);
    expect(read(2n ** 48n)).toBe(2 ** 48);
  });

  it('reads eight- and nine-byte values exactly: a number while safe, a decimal string beyond', () => {
    // 2^55 + 1 is an eight-byte varint; a float sum of its groups would round it to 2^55.
    expect(read(2n ** 55n + 1n)).toBe('36028797018963969');
    expect(read(2n ** 53n - 1n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(read(2n ** 53n)).toBe('9007199254740992');
    expect(read(2n ** 62n + 3n)).toBe('4611686018427387907');
  });

  it('reads negative values as two\'s complement', () => {
    expect(read(-1n)).toBe(-1);
    expect(read(-2n)).toBe(-2);
    expect(read(-300n)).toBe(-300);
    expect(read(-(2n ** 53n))).toBe('-9007199254740992');
    expect(read(-(2n ** 62n) - 5n)).toBe('-4611686018427387909');
  });

  it('leaves the position after the varint, on both paths', () => {
    for (const v of [5n, -1n, 2n ** 55n]) {
      const r = reader([...varint(v), 0x07]);
      r.int64();
      expect(r.varint()).toBe(7);
    }
  });

  it('refuses an eleventh byte naming where the varint started, and a cut-off varint where it ended', () => {
    expect(thrown(() => reader([...Array(10).fill(0xff), 0x01]).int64())).toEqual(decodeError('varint longer than 10 bytes at byte 0'));
    const r = reader([0x01, ...Array(10).fill(0xff), 0x01]);
    r.varint();
    expect(thrown(() => r.int64())).toEqual(decodeError('varint longer than 10 bytes at byte 1'));
    expect(thrown(() => reader([0xff, 0xff]).int64())).toEqual(decodeError('varint at byte 2'));
    // Eight 0xff bytes inside a message whose end comes before the last one: the outer byte does not count.
    expect(thrown(() => reader([...Array(8).fill(0xff), 0x01], 8).int64())).toEqual(decodeError('varint at byte 8'));
    expect(thrown(() => reader([0xff, 0x01], 1).int64())).toEqual(decodeError('varint at byte 1'));
  });
});

describe('fixed-width values', () => {
  it('reads fixed64 unsigned, sfixed64 signed, doubles and fixed32, little-endian, advancing past each', () => {
    const r = reader([...le64(2n ** 64n - 1n), ...le64(-1n), ...le64(2n ** 63n - 1n), ...le64(-(2n ** 63n)), ...le64(-42n), ...le64(2n ** 53n + 1n), ...leDouble(-2.5), 0x78, 0x56, 0x34, 0x12, ...le64(7n)]);
    expect(r.fixed64()).toBe(2n ** 64n - 1n);
    expect(r.sfixed64()).toBe(-1);
    expect(r.sfixed64()).toBe('9223372036854775807');
    expect(r.sfixed64()).toBe('-9223372036854775808');
    expect(r.sfixed64()).toBe(-42);
    expect(r.fixed64Number()).toBe(2 ** 53);
    expect(r.double()).toBe(-2.5);
    expect(r.fixed32()).toBe(0x12345678);
    expect(r.fixed64()).toBe(7n);
    expect(r.pos).toBe(r.end);
  });

  it('reads a value that exactly fills what is left', () => {
    expect(reader(le64(3n)).fixed64()).toBe(3n);
    expect(reader(le64(3n)).sfixed64()).toBe(3);
    expect(reader(leDouble(0.5)).double()).toBe(0.5);
    expect(reader([1, 0, 0, 0]).fixed32()).toBe(1);
  });

  it('refuses a value cut off by the end of the buffer or of a nested message, with our error', () => {
    const nine = [...le64(1n), 0];
    for (const [name, read] of [['fixed64', (r: WireReader) => r.fixed64()], ['sfixed64', (r: WireReader) => r.sfixed64()], ['double', (r: WireReader) => r.double()]] as const) {
      expect(thrown(() => read(reader([1, 2, 3]))), name).toEqual(decodeError(`${name} at byte 0`));
      expect(thrown(() => read(reader(nine, 7))), name).toEqual(decodeError(`${name} at byte 0`));
    }
    expect(thrown(() => reader([1, 2, 3]).fixed32())).toEqual(decodeError('fixed32 at byte 0'));
    expect(thrown(() => reader([1, 2, 3, 4, 5], 3).fixed32())).toEqual(decodeError('fixed32 at byte 0'));
  });
});

describe('length-delimited values', () => {
  it('returns the range of the bytes and skips past them', () => {
    const r = reader([3, 9, 8, 7, 0x05]);
    expect(r.lengthDelimited()).toEqual([1, 4]);
    expect(r.pos).toBe(4);
    expect(reader([0]).lengthDelimited()).toEqual([1, 1]);
  });

  it('refuses a length past the end of the buffer or of a nested message', () => {
    expect(thrown(() => reader([3, 1, 2]).lengthDelimited())).toEqual(decodeError('length-delimited field at byte 1'));
    expect(thrown(() => reader([2, 1, 2], 2).lengthDelimited())).toEqual(decodeError('length-delimited field at byte 1'));
  });

  it('decodes strings as UTF-8 and bytes as base64', () => {
    const utf8 = [...Buffer.from('naïve ☃')];
    const r = reader([utf8.length, ...utf8, 3, 1, 2, 255, 0]);
    expect(r.string()).toBe('naïve ☃');
    expect(r.base64()).toBe('AQL/');
    expect(r.base64()).toBe('');
  });

  it('reads ids as lowercase hex: empty as empty, a wrong length or all zeros as malformed', () => {
    expect(reader([2, 0xab, 0xcd]).hexId(2)).toBe('abcd');
    expect(reader([0]).hexId(8)).toBe('');
    expect(reader([3, 1, 2, 3]).hexId(2)).toBeNull();
    expect(reader([1, 1]).hexId(2)).toBeNull();
    expect(reader([2, 0, 0]).hexId(2)).toBeNull();
    // One non-zero byte anywhere makes an id, the last one included.
    expect(reader([2, 0, 1]).hexId(2)).toBe('0001');
    expect(reader([2, 1, 0]).hexId(2)).toBe('0100');
    // The byte after an all-zero id is not part of it.
    expect(reader([2, 0, 0, 7]).hexId(2)).toBeNull();
    const r = reader([2, 0, 0, 1, 5]);
    r.hexId(2);
    expect(r.varint()).toBe(1);
  });
});

describe('nested messages', () => {
  const countBytes = (r: WireReader) => {
    let n = 0;
    while (r.pos < r.end) {
      r.varint();
      n++;
    }
    return n;
  };

  it('narrows the end to the nested message while parsing it, and restores it after', () => {
    const r = reader([2, 1, 1, 3, 4]);
    expect(r.message(countBytes, undefined)).toBe(2);
    expect(r.end).toBe(5);
    expect(r.varint()).toBe(3);
    // A message that exactly fills what is left.
    expect(reader([2, 1, 1]).message(countBytes, undefined)).toBe(2);
    expect(reader([0]).message(countBytes, undefined)).toBe(0);
  });

  it('passes its argument to the parser', () => {
    expect(reader([0]).message((_r, arg: string) => arg, 'through')).toBe('through');
  });

  it('refuses a length past the enclosing end, and a parser that stops short of the end', () => {
    expect(thrown(() => reader([3, 1, 1]).message(countBytes, undefined))).toEqual(decodeError('length-delimited field at byte 1'));
    expect(thrown(() => reader([2, 1, 1], 2).message(countBytes, undefined))).toEqual(decodeError('length-delimited field at byte 1'));
    expect(thrown(() => reader([2, 1, 1]).message(() => 0, undefined))).toEqual(decodeError('nested message overruns its length at byte 1'));
  });
});

describe('skip', () => {
  it('skips a field of each wire type to exactly where the next begins', () => {
    const cases: [number, number[]][] = [[WIRE_VARINT, [0x80, 0x01]], [WIRE_I64, le64(5n)], [WIRE_LEN, [2, 9, 9]], [WIRE_I32, [1, 2, 3, 4]]];
    for (const [wire, bytes] of cases) {
      const r = reader([...bytes, 0x2a]);
      r.skip(wire);
      expect(r.varint(), `wire type ${wire}`).toBe(42);
    }
  });

  it('refuses to skip past the end, and the group wire types and 6 and 7', () => {
    expect(thrown(() => reader([1, 2, 3, 4, 5, 6, 7]).skip(WIRE_I64))).toEqual(decodeError('fixed64 at byte 0'));
    expect(thrown(() => reader(le64(1n), 7).skip(WIRE_I64))).toEqual(decodeError('fixed64 at byte 0'));
    expect(thrown(() => reader([1, 2, 3]).skip(WIRE_I32))).toEqual(decodeError('fixed32 at byte 0'));
    expect(thrown(() => reader([1, 2, 3, 4], 3).skip(WIRE_I32))).toEqual(decodeError('fixed32 at byte 0'));
    expect(thrown(() => reader([5, 1]).skip(WIRE_LEN))).toEqual(decodeError('length-delimited field at byte 1'));
    expect(thrown(() => reader([0x80]).skip(WIRE_VARINT))).toEqual(decodeError('varint at byte 1'));
    for (const wire of [3, 4, 6, 7]) expect(thrown(() => reader([0, 0, 0, 0, 0, 0, 0, 0]).skip(wire))).toEqual(decodeError(`unsupported wire type ${wire} at byte 0`));
    // Exactly enough bytes left is enough.
    const r = reader(le64(1n));
    r.skip(WIRE_I64);
    expect(r.pos).toBe(8);
    const r4 = reader([1, 2, 3, 4]);
    r4.skip(WIRE_I32);
    expect(r4.pos).toBe(4);
  });
});

describe('repeated fixed64', () => {
  it('reads packed values in order, as integers or doubles', () => {
    const counts: number[] = [];
    reader([24, ...le64(3n), ...le64(0n), ...le64(2n ** 40n)]).repeatedFixed64(WIRE_LEN, counts, false);
    expect(counts).toEqual([3, 0, 2 ** 40]);
    const bounds: number[] = [0.1];
    reader([16, ...leDouble(0.5), ...leDouble(-1)]).repeatedFixed64(WIRE_LEN, bounds, true);
    expect(bounds).toEqual([0.1, 0.5, -1]);
    const none: number[] = [];
    reader([0]).repeatedFixed64(WIRE_LEN, none, true);
    expect(none).toEqual([]);
  });

  it('reads one unpacked value per field, as an integer or a double', () => {
    const out: number[] = [];
    const r = reader([...le64(9n), ...leDouble(0.25)]);
    r.repeatedFixed64(WIRE_I64, out, false);
    r.repeatedFixed64(WIRE_I64, out, true);
    expect(out).toEqual([9, 0.25]);
    expect(r.pos).toBe(16);
  });

  it('refuses a packed length that is not a multiple of eight, and any other wire type', () => {
    expect(thrown(() => reader([9, ...le64(1n), 0]).repeatedFixed64(WIRE_LEN, [], false))).toEqual(decodeError('packed fixed64 length at byte 10'));
    expect(thrown(() => reader([4, 0, 0, 0, 0]).repeatedFixed64(WIRE_LEN, [], true))).toEqual(decodeError('packed fixed64 length at byte 5'));
    expect(thrown(() => reader([1]).repeatedFixed64(WIRE_VARINT, [], false))).toEqual(decodeError('wire type 0 for a fixed64 field at byte 0'));
    expect(thrown(() => reader([1, 0, 0, 0]).repeatedFixed64(WIRE_I32, [], false))).toEqual(decodeError('wire type 5 for a fixed64 field at byte 0'));
  });
});

describe('wire type checks', () => {
  // Built inside each test, not at collection: a mutant is only active while tests run.
  const pointSpec = () => messageSpec('Point', { 1: ['name', WIRE_LEN], 3: ['count', WIRE_VARINT], 4: ['bounds', WIRE_FIXED64_REPEATED], 6: ['flags', WIRE_I32] });

  it('records each field\'s wire type and name by number', () => {
    const spec = pointSpec();
    expect(spec.message).toBe('Point');
    expect(spec.wires[1]).toBe(WIRE_LEN);
    expect(spec.wires[3]).toBe(WIRE_VARINT);
    expect(spec.names[4]).toBe('bounds');
    expect(spec.wires[2]).toBeUndefined();
  });

  it('accepts the declared wire type, either encoding of a repeated fixed64, and anything for an unknown field', () => {
    const spec = pointSpec();
    const r = reader([]);
    expect(() => r.check(spec, 1, WIRE_LEN)).not.toThrow();
    expect(() => r.check(spec, 3, WIRE_VARINT)).not.toThrow();
    expect(() => r.check(spec, 6, WIRE_I32)).not.toThrow();
    expect(() => r.check(spec, 4, WIRE_I64)).not.toThrow();
    expect(() => r.check(spec, 4, WIRE_LEN)).not.toThrow();
    for (const wire of [0, 1, 2, 3, 4, 5, 6, 7]) {
      expect(() => r.check(spec, 2, wire)).not.toThrow();
      expect(() => r.check(spec, 0, wire)).not.toThrow();
    }
  });

  it('refuses any other wire type, naming the message, field and what was expected', () => {
    const spec = pointSpec();
    const r = reader([]);
    expect(thrown(() => r.check(spec, 1, WIRE_VARINT))).toEqual(decodeError('Point.name (field 1) has wire type 0, expected 2 at byte 0'));
    expect(thrown(() => r.check(spec, 3, WIRE_LEN))).toEqual(decodeError('Point.count (field 3) has wire type 2, expected 0 at byte 0'));
    expect(thrown(() => r.check(spec, 4, WIRE_VARINT))).toEqual(decodeError('Point.bounds (field 4) has wire type 0, expected 1 or 2 at byte 0'));
    expect(thrown(() => r.check(spec, 4, WIRE_I32))).toEqual(decodeError('Point.bounds (field 4) has wire type 5, expected 1 or 2 at byte 0'));
    expect(thrown(() => r.check(spec, 6, WIRE_I64))).toEqual(decodeError('Point.flags (field 6) has wire type 1, expected 5 at byte 0'));
  });
});

describe('WireWriter', () => {
  it('writes varints, strings, bytes and nested messages as protobuf', () => {
    const out = new WireWriter().uint(1, 3).uint(2, 300).string(3, 'hé').bytes(4, Uint8Array.from([0, 255])).message(5, new WireWriter().uint(1, 2 ** 35)).finish();
    expect([...out]).toEqual([0x08, 3, 0x10, 0xac, 0x02, 0x1a, 3, 0x68, 0xc3, 0xa9, 0x22, 2, 0, 255, 0x2a, 7, 0x08, ...varint(2 ** 35)]);
  });

  it('leaves out zero integers and empty strings, as proto3 does, but keeps empty bytes and messages', () => {
    expect([...new WireWriter().uint(1, 0).string(2, '').finish()]).toEqual([]);
    expect([...new WireWriter().bytes(1, new Uint8Array()).message(2, new WireWriter()).finish()]).toEqual([0x0a, 0, 0x12, 0]);
  });

  it('writes tags for field numbers past 15 as multi-byte varints, which the reader reads back', () => {
    const out = new WireWriter().uint(16, 1).string(2047, 'x').finish();
    const r = new WireReader(out);
    expect(r.tag()).toBe((16 << 3) | WIRE_VARINT);
    expect(r.varint()).toBe(1);
    expect(r.tag()).toBe((2047 << 3) | WIRE_LEN);
    expect(r.string()).toBe('x');
  });
});
