import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ColonyChoice, resolveColonyChoice } from '../../src/agent/colony-choice.js';
import { readLiveRuntime, readRuntimeToken, runtimePath, writeRuntime } from '../../src/colony/runtime.js';
import { resolveOtlpTarget } from '../../src/commands/otlp-target.js';
import { useColor } from '../../src/core/color.js';

const home = mkdtempSync(join(tmpdir(), 'coral-choice-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = { CORAL_HOME: home } as NodeJS.ProcessEnv;

describe('which colony a reading command uses', () => {
  it('keeps what the flags name: a URL, a demo, :memory:', () => {
    for (const c of [{ colony: 'http://h:1' }, { demo: 'healthy' }, { db: ':memory:' }]) expect(resolveColonyChoice(c, { env })).toEqual(c);
  });

  it('refuses a file that does not exist, naming it', () => {
    expect(() => resolveColonyChoice({ db: join(home, 'nope.duckdb') }, { env })).toThrow(`No colony database at ${join(home, 'nope.duckdb')}.`);
  });

  it('takes CORAL_COLONY, then config colony.url, before the default file', () => {
    const notes: string[] = [];
    const viaEnv = resolveColonyChoice({}, { env: { ...env, CORAL_COLONY: 'http://env:4318', CORAL_COLONY_TOKEN: 't' }, notify: (l) => notes.push(l) });
    expect(viaEnv).toEqual({ colony: 'http://env:4318', token: 't' });
    writeFileSync(join(home, 'config.yaml'), 'colony:\n  url: http://cfg:4318\n  token: env://CFG_TOKEN\n');
    const viaConfig = resolveColonyChoice({}, { env: { ...env, CFG_TOKEN: 'from-config' }, notify: (l) => notes.push(l) });
    rmSync(join(home, 'config.yaml'));
    expect(viaConfig).toEqual({ colony: 'http://cfg:4318', token: 'from-config' });
    expect(notes).toEqual(['coral: using the default colony http://env:4318 (CORAL_COLONY)', 'coral: using the default colony http://cfg:4318 (config colony.url)']);
  });

  it('goes through the running colony that holds the file, with its token; a record left by a crash is ignored', () => {
    const db = join(home, 'held.duckdb');
    writeFileSync(db, '');
    const forget = writeRuntime({ db, url: 'http://127.0.0.1:9999', mcp: true, otlpGrpc: '127.0.0.1:9998' }, 'tok');
    try {
      expect(statSync(`${db}.token`).mode & 0o777).toBe(0o600);
      const notes: string[] = [];
      expect(resolveColonyChoice({ db }, { env, notify: (l) => notes.push(l) })).toEqual({ db: undefined, colony: 'http://127.0.0.1:9999', token: 'tok' });
      expect(notes[0]).toMatch(/using the running colony at http:\/\/127\.0\.0\.1:9999 \(pid \d+, serving .*held\.duckdb\)/);
      const rt = readLiveRuntime(db);
      expect(rt && readRuntimeToken(rt)).toBe('tok');
      expect(resolveOtlpTarget({ protocol: 'grpc' }, {}, rt ? { rt, token: 'tok' } : null)).toMatchObject({ endpoint: '127.0.0.1:9998', headers: { authorization: 'Bearer tok' } });
    } finally {
      forget();
    }
    // A crashed colony's record: its pid is gone.
    writeFileSync(runtimePath(db), JSON.stringify({ pid: 2 ** 22 + 7, db, url: 'http://x', mcp: true, otlpGrpc: null, tokenFile: null, startedAt: '' }));
    expect(resolveColonyChoice({ db }, { env })).toEqual({ db });
  });
});

describe('--colony naming the machine\'s own colony', () => {
  it('uses its token file, and only for that origin', () => {
    const forget = writeRuntime({ db: join(home, 'colony.duckdb'), url: 'http://127.0.0.1:4318', mcp: true, otlpGrpc: null }, 'own-token');
    try {
      expect(resolveColonyChoice<ColonyChoice>({ colony: 'http://127.0.0.1:4318/mcp' }, { env }).token).toBe('own-token');
      expect(resolveColonyChoice<ColonyChoice>({ colony: 'http://127.0.0.1:5000' }, { env }).token).toBeUndefined();
      expect(resolveColonyChoice({ colony: 'http://127.0.0.1:4318', token: 'given' }, { env }).token).toBe('given');
    } finally {
      forget();
    }
  });
});

describe('demo replay target', () => {
  it('follows flags, then OTEL_EXPORTER_OTLP_* variables, then the default port per protocol', () => {
    expect(resolveOtlpTarget({ otlp: 'http://a:1' }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:2' }, null)).toMatchObject({ endpoint: 'http://a:1', protocol: 'http/json' });
    expect(resolveOtlpTarget({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:2', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20x,x-team=a' }, null))
      .toEqual({ endpoint: 'http://b:2', protocol: 'http/protobuf', headers: { authorization: 'Bearer x', 'x-team': 'a' }, from: 'OTEL_EXPORTER_OTLP_ENDPOINT' });
    expect(resolveOtlpTarget({}, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, null).endpoint).toBe('http://127.0.0.1:4317');
    expect(() => resolveOtlpTarget({}, { OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' }, null)).toThrow(/Unknown OTLP protocol "thrift" \(from OTEL_EXPORTER_OTLP_PROTOCOL\)/);
  });
});

describe('colour', () => {
  it('only on a terminal, never with NO_COLOR or TERM=dumb', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});
