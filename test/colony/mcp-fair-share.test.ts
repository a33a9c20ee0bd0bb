/**
 * One program on this machine holding every MCP session it can get, with its event streams open,
 * against a real `coral colony serve`: it gets its own share, the next `coral query --colony` still
 * works, and once the colony is full the CLI says the colony refused (and who holds the sessions),
 * not that it should be started (issue 39, item 7).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServedColony, startColonyServe, stopColonyServe } from '../support/colony-serve.js';
import { coralCli } from '../support/coral-cli.js';

/**
 * A program that asks for `want` sessions, opens the event stream of each one it gets, prints
 * {"ok":N,"refused":M} and keeps them open until killed.
 */
const HOG = `
const http = require('http');
const [url, want] = [process.argv[1], Number(process.argv[2])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'hog', version: '1' } } });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const post = () => new Promise((done, fail) => {
  const req = http.request(url, { method: 'POST', headers, agent }, (res) => { res.resume(); res.on('end', () => done({ status: res.statusCode, id: res.headers['mcp-session-id'] })); });
  req.on('error', fail);
  req.end(init);
});
const listen = (id) => new Promise((done, fail) => {
  const req = http.request(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-03-26' } }, (res) => done(res.statusCode));
  req.on('error', fail);
  req.end();
});
(async () => {
  let ok = 0, refused = 0;
  for (let i = 0; i < want; i++) {
    const r = await post();
    if (r.status === 200 && r.id) { ok++; if ((await listen(r.id)) !== 200) throw new Error('no event stream'); }
    else if (r.status === 429) refused++;
    else throw new Error('unexpected ' + r.status);
  }
  console.log(JSON.stringify({ ok, refused }));
  setInterval(() => {}, 1 << 30);
})().catch((e) => { console.error(e); process.exit(1); });
`;

interface Hog {
  child: ChildProcess;
  ok: number;
  refused: number;
}

async function hog(url: string, want: number): Promise<Hog> {
  const child = spawn(process.execPath, ['-e', HOG, `${url}/mcp`, String(want)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the hog exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as { ok: number; refused: number }) };
}

describe.runIf(process.platform === 'linux')('MCP sessions shared fairly between the programs on one machine', () => {
  const home = mkdtempSync(join(tmpdir(), 'coral-fair-'));
  const hogs: Hog[] = [];
  let serve: ServedColony | undefined;
  afterAll(async () => {
    for (const h of hogs) h.child.kill();
    if (serve) await stopColonyServe(serve.child);
    rmSync(home, { recursive: true, force: true });
  });

  it('a program asking for 64 sessions with open streams gets 16; the CLI still answers; a full colony is said to refuse, naming who holds it', async () => {
    const db = join(home, 'colony.duckdb');
    serve = await startColonyServe(['--db', db, '--max-mcp-sessions', '20'], `${db}.serve.json`, { CORAL_HOME: home });
    const coral = coralCli({ CORAL_HOME: home });

    const first = await hog(serve.url, 64);
    hogs.push(first);
    expect({ ok: first.ok, refused: first.refused }).toEqual({ ok: 16, refused: 48 });
    const health = await coral('query', 'health', '--colony', serve.url, '-o', 'json');
    expect(health.stderr).toBe('');
    expect(health.code).toBe(0);
    expect(JSON.parse(health.stdout)).toHaveProperty('services');

    // A second program takes what is left: the colony's 20 are all held, with their streams open.
    const second = await hog(serve.url, 8);
    hogs.push(second);
    expect({ ok: second.ok, refused: second.refused }).toEqual({ ok: 4, refused: 4 });
    const refused = await coral('query', 'health', '--colony', serve.url);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`The colony at ${serve.url}/mcp is running but refused a new MCP session`);
    expect(refused.stderr).toContain(`held by local process ${first.child.pid}: 16, local process ${second.child.pid}: 4`);
    expect(refused.stderr).toMatch(/Other programs hold its sessions/);
    expect(refused.stderr).not.toMatch(/Start (one|it) with/);
  }, 120_000);

  it('a colony that refuses the token is said to be running and to want its token, not to be started', async () => {
    const db = join(home, 'guarded.duckdb');
    const tokenFile = join(home, 'token');
    writeFileSync(tokenFile, 'the-right-token\n', { mode: 0o600 });
    const guarded = await startColonyServe(['--db', db, '--token-file', tokenFile, '--no-otlp-grpc'], `${db}.serve.json`, { CORAL_HOME: home });
    try {
      const wrong = await coralCli({ CORAL_HOME: home, CORAL_COLONY_TOKEN: 'not-it' })('query', 'health', '--colony', guarded.url);
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toContain(`The colony at ${guarded.url}/mcp is running but refused the connection`);
      expect(wrong.stderr).toMatch(/Give its token with --token-file PATH or CORAL_COLONY_TOKEN/);
      expect(wrong.stderr).not.toContain('the-right-token');
      expect(wrong.stderr).not.toMatch(/Start (one|it) with/);
    } finally {
      await stopColonyServe(guarded.child);
    }
  }, 60_000);
});
