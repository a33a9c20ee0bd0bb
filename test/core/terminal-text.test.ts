import { describe, expect, it } from 'vitest';
import { jsonForTerminal, terminalSafe, terminalSafeDeep } from '../../src/core/terminal-text.js';

describe('terminalSafe', () => {
  it('writes what a terminal would act on as visible escapes', () => {
    expect(terminalSafe('evil\x1b[2J\x1b]0;PWNED\x07svc')).toBe('evil\\x1b[2J\\x1b]0;PWNED\\x07svc');
    expect(terminalSafe('GET /x\x1b]52;c;ZWNobw==\x07')).toBe('GET /x\\x1b]52;c;ZWNobw==\\x07');
    expect(terminalSafe('ok\rspoofed')).toBe('ok\\x0dspoofed');
    expect(terminalSafe('\x00\x08\x0b\x0c\x1f\x7f')).toBe('\\x00\\x08\\x0b\\x0c\\x1f\\x7f');
    // C1 controls (CSI as one character) and bidirectional overrides.
    expect(terminalSafe('a\u009b31mb\u0080\u009f')).toBe('a\\x9b31mb\\x80\\x9f');
    expect(terminalSafe('user\u202egnp.exe')).toBe('user\\u202egnp.exe');
    expect(terminalSafe('\u202a\u202d\u2066\u2069')).toBe('\\u202a\\u202d\\u2066\\u2069');
  });

  it('keeps tabs, newlines and printable text of any script as they are', () => {
    for (const t of ['line one\nline two\tcol', 'café 日本語 ✓ ├─ …', '\u00a0\u00ff\u2010x', '']) expect(terminalSafe(t)).toBe(t);
    // The characters just outside the unsafe ranges.
    expect(terminalSafe('\u00a0\u2029\u202f\u2065\u206a')).toBe('\u00a0\u2029\u202f\u2065\u206a');
  });
});

describe('terminalSafeDeep', () => {
  it('makes every string and key safe, at any depth, without touching the input', () => {
    const input = { service: 'a\x1bb', spans: [{ name: 'x\x07', attributes: { 'k\x1b': 'v', n: 3, ok: true, none: null } }], clean: ['c'] };
    const copy = structuredClone(input);
    expect(terminalSafeDeep(input)).toEqual({ service: 'a\\x1bb', spans: [{ name: 'x\\x07', attributes: { 'k\\x1b': 'v', n: 3, ok: true, none: null } }], clean: ['c'] });
    expect(input).toEqual(copy);
  });

  it('returns clean parts as they are, not copies', () => {
    const clean = { a: 'x', list: [{ b: 'y' }] };
    expect(terminalSafeDeep(clean)).toBe(clean);
    const mixed = { dirty: 'z\x1b', clean: clean.list };
    const out = terminalSafeDeep(mixed);
    expect(out).not.toBe(mixed);
    expect(out.clean).toBe(clean.list);
  });

  it('leaves numbers, booleans, bigints and class instances alone', () => {
    const d = new Date(0);
    expect(terminalSafeDeep({ n: 1, b: false, big: 2n, d })).toEqual({ n: 1, b: false, big: 2n, d });
    expect(terminalSafeDeep({ d }).d).toBe(d);
  });
});

describe('jsonForTerminal', () => {
  it('gives the same data, with no character a terminal acts on left raw', () => {
    const value = { s: 'a\x1b[2J\u009b\u202e\x7fz', t: 'plain' };
    const json = jsonForTerminal(value, 2);
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(json).toContain('\\u009b');
    expect(jsonForTerminal({ a: 1 })).toBe('{"a":1}');
  });
});
