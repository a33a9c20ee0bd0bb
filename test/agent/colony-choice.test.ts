import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ColonyChoice, resolveColonyChoice } from '../../src/agent/colony-choice.js';
import { runtimePath, writeRuntime } from '../../src/colony/runtime.js';
import { findRunningColony } from '../../src/colony/runtime-probe.js';
import { startListener } from '../support/fake-colony.js';
import { resolveOtlpTarget } from '../../src/commands/otlp-target.js';
import { useColor } from '../../src/core/color.js';

const home = mkdtempSync(join(tmpdir(), 'coral-choice-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = { CORAL_HOME: home } as NodeJS.ProcessEnv;

describe('which colony a reading command uses', () => {
  it('keeps what the flags name: a URL, a demo, :memory:', async () => {
    for (const c of [{ colony: 'http://h:1' }, { demo: 'healthy' }, { db: ':memory:' }]) expect(await resolveColonyChoice(c, { env })).toEqual(c);
  });

  it('refuses a file that does not exist, naming it', async () => {
    await expect(resolveColonyChoice({ db: join(home, 'nope.duckdb') }, { env })).rejects.toThrow(`No colony database at ${join(home, 'nope.duckdb')}.`);
  });

  it('takes CORAL_COLONY, then config colony.url, before the default file', async () => {
    const notes: string[] = [];
    const viaEnv = await resolveColonyChoice({}, { env: { ...env, CORAL_COLONY: 'http://env:4318', CORAL_COLONY_TOKEN: 't' }, notify: (l) => notes.push(l) });
    expect(viaEnv).toEqual({ colony: 'http://env:4318', token: 't' });
    writeFileSync(join(home, 'config.yaml'), 'colony:\n  url: http://cfg:4318\n  token: env://CFG_TOKEN\n');
    const viaConfig = await resolveColonyChoice({}, { env: { ...env, CFG_TOKEN: 'from-config' }, notify: (l) => notes.push(l) });
    rmSync(join(home, 'config.yaml'));
    expect(viaConfig).toEqual({ colony: 'http://cfg:4318', token: 'from-config' });
    expect(notes).toEqual(['coral: using the default colony http://env:4318 (CORAL_COLONY)', `coral: using the default colony http://cfg:4318 (colony.url in global (${join(home, 'config.yaml')}))`]);
  });

  it('goes through the running colony that holds the file, with its own token once it proved it holds it; a record left by a crash is ignored', async () => {
    const db = join(home, 'held.duckdb');
    writeFileSync(db, '');
    const nonce = 'n'.repeat(32);
    const colony = await startListener({ nonce, token: 'tok' });
    const forget = writeRuntime({ db, url: colony.url, mcp: true, otlpGrpc: '127.0.0.1:9998', nonce }, 'tok');
    try {
      expect(statSync(`${db}.token`).mode & 0o777).toBe(0o600);
      const notes: string[] = [];
      // CORAL_COLONY_TOKEN belongs with CORAL_COLONY or --colony: the colony found beside the file gets its own token.
      expect(await resolveColonyChoice({ db }, { env: { ...env, CORAL_COLONY_TOKEN: 'other' }, notify: (l) => notes.push(l) })).toEqual({ db: undefined, colony: colony.url, token: 'tok' });
      expect(notes[0]).toMatch(/using the running colony at http:\/\/127\.0\.0\.1:\d+ \(pid \d+, serving .*held\.duckdb\)/);
      // The probe itself carries no credential.
      expect(colony.authorizations).toEqual([undefined]);
      const running = await findRunningColony(db);
      expect(running?.token).toBe('tok');
      expect(resolveOtlpTarget({ protocol: 'grpc' }, {}, running)).toMatchObject({ endpoint: '127.0.0.1:9998', headers: { authorization: 'Bearer tok' } });
    } finally {
      forget();
      await colony.close();
    }
    // A crashed colony's record: its pid is gone.
    writeFileSync(runtimePath(db), JSON.stringify({ pid: 2 ** 22 + 7, db, url: 'http://x', mcp: true, otlpGrpc: null, tokenFile: null, nonce, startedAt: '' }));
    expect(await resolveColonyChoice({ db }, { env })).toEqual({ db });
  });
});

describe('--colony naming the machine\'s own colony', () => {
  it('uses its token file, and only for that origin', async () => {
    const nonce = 'm'.repeat(32);
    const colony = await startListener({ nonce, token: 'own-token' });
    const forget = writeRuntime({ db: join(home, 'colony.duckdb'), url: colony.url, mcp: true, otlpGrpc: null, nonce }, 'own-token');
    try {
      expect((await resolveColonyChoice<ColonyChoice>({ colony: `${colony.url}/mcp` }, { env })).token).toBe('own-token');
      expect((await resolveColonyChoice<ColonyChoice>({ colony: 'http://127.0.0.1:5000' }, { env })).token).toBeUndefined();
      expect((await resolveColonyChoice({ colony: colony.url, token: 'given' }, { env })).token).toBe('given');
    } finally {
      forget();
      await colony.close();
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
