/**
 * Issue #31 end to end with the built bundle: no secret reaches a URL that an untrusted project
 * file, a token from another source, or a crafted `<db>.serve.json` names. A listener on 127.0.0.1
 * records every Authorization header it receives. Only node built-ins and the bundle here, so the
 * same file runs against older code to show the leaks it guards against.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BUNDLE = resolve('dist/coral.js');
const SECRET = 'AKIAFAKESECRET0123456789';

let home: string;
let project: string;
let server: Server;
let seen: (string | undefined)[];
let listener: string;

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'coral-trustcli-home-'));
  project = mkdtempSync(join(tmpdir(), 'coral-trustcli-project-'));
  mkdirSync(join(project, '.coral'));
  seen = [];
  server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  listener = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

async function coral(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, CORAL_HOME: home, AWS_SECRET_ACCESS_KEY: SECRET, NO_COLOR: '1' };
  delete base.CORAL_COLONY;
  delete base.CORAL_COLONY_TOKEN;
  try {
    const r = await run(process.execPath, [BUNDLE, ...args], { cwd: project, env: { ...base, ...env }, timeout: 60_000 });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const projectConfig = (yaml: string) => writeFileSync(join(project, '.coral', 'config.yaml'), yaml);
const leaked = () => seen.filter((a) => a?.includes(SECRET));

describe('an untrusted project config', () => {
  it('picks no colony and sends no token; config show marks its colony settings ignored', async () => {
    projectConfig(`colony:\n  url: ${listener}\n  token: env://AWS_SECRET_ACCESS_KEY\ncolonies:\n  x: { ask: { max_tool_rounds: 2, api_keys: { google: env://AWS_SECRET_ACCESS_KEY } } }\n`);
    const q = await coral(['query', 'summary']);
    expect(leaked()).toEqual([]);
    expect(seen).toEqual([]);
    expect(q.stderr).toMatch(/is not trusted, so these settings are ignored: colony\.url, colony\.token/);
    const show = JSON.parse((await coral(['config', 'show', '--json'])).stdout) as { colony: { url: string | null }; colonies: unknown; ignored?: Record<string, string[]> };
    expect(show.colony.url).toBeNull();
    expect(show.colonies).toEqual({ x: { ask: { max_tool_rounds: 2 } } });
    expect(Object.values(show.ignored ?? {})).toEqual([['colony.url', 'colony.token', 'colonies.x.ask.api_keys']]);
  }, 60_000);

  it('once trusted, its colony.url gets its own colony.token and never CORAL_COLONY_TOKEN', async () => {
    projectConfig(`colony:\n  url: ${listener}\n`);
    expect((await coral(['config', 'trust'])).code).toBe(0);
    const q = await coral(['query', 'summary'], { CORAL_COLONY_TOKEN: SECRET });
    expect(seen.length).toBeGreaterThan(0);
    expect(leaked()).toEqual([]);
    expect(q.stderr).toMatch(/not sent to a colony\.url from the project file/);

    // Its own reference is sent: the listener above would have seen a leak.
    projectConfig(`colony:\n  url: ${listener}\n  token: env://AWS_SECRET_ACCESS_KEY\n`);
    expect((await coral(['config', 'trust'])).code).toBe(0);
    await coral(['query', 'summary']);
    expect(seen).toContain(`Bearer ${SECRET}`);
  }, 90_000);
});

describe('a crafted serve.json beside a --db', () => {
  it('sends no file as the token to the URL it names, and says why it is ignored', async () => {
    const db = join(project, 'x.duckdb');
    const credentials = join(home, 'git-credentials');
    writeFileSync(credentials, `https://user:${SECRET}@github.com\n`, { mode: 0o600 });
    writeFileSync(`${db}.serve.json`, JSON.stringify({ pid: 1, db, url: listener, mcp: true, otlpGrpc: null, tokenFile: credentials, nonce: 'f'.repeat(32), startedAt: '' }));
    for (const args of [['query', 'summary', '--db', db], ['colony', 'status', '--db', db]]) {
      const r = await coral(args);
      expect(leaked()).toEqual([]);
      expect(r.stderr).toMatch(/ignoring .*x\.duckdb\.serve\.json: .* names a token file coral did not write/);
    }
  }, 60_000);

  it('a stale one (pid alive, nothing answering) is ignored and the database file is read', async () => {
    const db = join(project, 'x.duckdb');
    expect((await coral(['demo', 'load', 'healthy', '--db', db])).code).toBe(0);
    const gone = listener;
    await new Promise((r) => server.close(r));
    server = createServer().listen(0, '127.0.0.1');
    writeFileSync(`${db}.serve.json`, JSON.stringify({ pid: 1, db, url: gone, mcp: true, otlpGrpc: null, tokenFile: null, nonce: 'f'.repeat(32), startedAt: '' }));
    const r = await coral(['colony', 'status', '--db', db, '--json']);
    expect(r.stderr).toMatch(/ignoring .*serve\.json: its colony at .* does not answer/);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { counts: { spans: number } }).counts.spans).toBeGreaterThan(0);
  }, 120_000);
});

describe('--token in the process list', () => {
  it('--token warns that other users see it; --token-file reads the file and does not warn', async () => {
    const flag = await coral(['query', 'summary', '--colony', listener, '--token', SECRET]);
    expect(flag.stderr).toMatch(/--token is visible to other users of this machine in the process list \(ps\); use --token-file PATH or CORAL_COLONY_TOKEN/);
    const file = join(home, 'token');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    seen = [];
    const viaFile = await coral(['query', 'summary', '--colony', listener, '--token-file', file]);
    expect(viaFile.stderr).not.toMatch(/process list/);
    expect(seen).toContain(`Bearer ${SECRET}`);
    const both = await coral(['query', 'summary', '--colony', listener, '--token', 'x', '--token-file', file]);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/--token and --token-file are both given/);
  }, 60_000);
});
