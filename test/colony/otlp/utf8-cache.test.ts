import { describe, expect, it } from 'vitest';
import { MAX_CACHED_BYTES, decodeUtf8 } from '../../../src/colony/otlp/utf8-cache.js';

/** `text` as bytes in the middle of a larger buffer, as a protobuf field sits in its export. */
function framed(bytes: Buffer): { buf: Buffer; start: number; end: number } {
  const buf = Buffer.concat([Buffer.from([0xaa, 0xbb, 0xcc]), bytes, Buffer.from([0xdd])]);
  return { buf, start: 3, end: 3 + bytes.length };
}

const decode = (bytes: Buffer) => {
  const { buf, start, end } = framed(bytes);
  return decodeUtf8(buf, start, end);
};

describe('decodeUtf8', () => {
  it('gives what Buffer#toString gives, for ASCII, multi-byte, invalid UTF-8 and long strings', () => {
    const cases = [
      Buffer.from('http.request.method'),
      Buffer.from('café ☕ 𝄞'),
      Buffer.from([0x61, 0xff, 0xfe, 0x62]),
      Buffer.from([0xe2, 0x82]),
      Buffer.from('x'.repeat(MAX_CACHED_BYTES)),
      Buffer.from('y'.repeat(MAX_CACHED_BYTES + 1)),
      Buffer.alloc(0),
    ];
    for (const bytes of cases) {
      expect(decode(bytes)).toBe(bytes.toString('utf8'));
      // Again: now from the cache.
      expect(decode(bytes)).toBe(bytes.toString('utf8'));
    }
  });

  it('never answers one string for different bytes, however many share a cache slot', () => {
    const seen = new Map<string, string>();
    for (let i = 0; i < 20_000; i++) {
      const text = `k${i.toString(36)}`;
      seen.set(text, decode(Buffer.from(text)));
    }
    for (let i = 0; i < 20_000; i += 7) {
      const text = `k${i.toString(36)}`;
      expect(decode(Buffer.from(text))).toBe(text);
    }
    for (const [text, got] of seen) expect(got).toBe(text);
  });

  it('compares every byte: strings of one length that differ only in their last byte stay apart', () => {
    const a = Buffer.from('service.name.a');
    const b = Buffer.from('service.name.b');
    expect(decode(a)).toBe('service.name.a');
    expect(decode(b)).toBe('service.name.b');
    expect(decode(a)).toBe('service.name.a');
  });
});

describe('decodeUtf8 when two strings share a cache slot', () => {
  // The slot is a hash of the bytes; 50,000 pairs make about a dozen collisions whatever the hash, so
  // the pairs below meet in a slot without the test knowing how slots are chosen.
  const PAIRS = 50_000;
  const word = (i: number, base: number) => {
    let s = '';
    for (let n = i; s.length < 4; n = Math.floor(n / 26)) s += String.fromCharCode(base + (n % 26));
    return s;
  };

  it('never answers a cached string for a shorter one it starts with', () => {
    for (let i = 0; i < PAIRS; i++) {
      decode(Buffer.from(`key.${i}x`));
      expect(decode(Buffer.from(`key.${i}`))).toBe(`key.${i}`);
    }
  });

  it('never answers a cached string for one of the same length that differs in every byte', () => {
    for (let i = 0; i < PAIRS; i++) {
      const lower = word(i, 97);
      const upper = word(i, 65);
      decode(Buffer.from(lower));
      expect(decode(Buffer.from(upper))).toBe(upper);
    }
  });

  it('compares the bytes of the string itself, not the bytes before it', () => {
    for (let i = 0; i < PAIRS; i++) {
      const cached = `a${word(i, 97)}`;
      const other = `a${word(i + 1, 65)}`;
      decode(Buffer.from(cached));
      // The bytes before `other` are those of `cached` after its first, reversed: a read walking
      // backwards from the start would find `cached` there.
      const before = Buffer.from([...Buffer.from(cached.slice(1))].reverse());
      const buf = Buffer.concat([before, Buffer.from(other)]);
      expect(decodeUtf8(buf, before.length, buf.length)).toBe(other);
    }
  });

  it('measures the string from its start, not from the start of the buffer', () => {
    for (let i = 0; i < PAIRS; i++) {
      const key = word(i, 97);
      // Cached: the key and the two bytes after it; asked: the key alone, one byte into its buffer.
      decode(Buffer.from(`${key}xy`));
      expect(decodeUtf8(Buffer.from(`Z${key}xy`), 1, 5)).toBe(key);
    }
  });

  it('reads a string at the very start of its buffer from the cache', () => {
    const buf = Buffer.from('service.name');
    expect(decodeUtf8(buf, 0, buf.length)).toBe('service.name');
    expect(decodeUtf8(buf, 0, buf.length)).toBe('service.name');
    expect(decodeUtf8(buf, 0, 7)).toBe('service');
  });
});
