/**
 * A `<db>.serve.json` is trusted only when it is ours and its process proves it is that colony
 * (runtime.ts, runtime-probe.ts). Each attack below points the record at a listener on 127.0.0.1
 * that records the Authorization header it receives: nothing secret may reach it, and the reading
 * command opens the database file itself.
 */
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveColonyChoice } from '../../src/agent/colony-choice.js';
import { runtimePath, tokenPath, writeRuntime } from '../../src/colony/runtime.js';
import { findRunningColony } from '../../src/colony/runtime-probe.js';
import { openColonyAccess } from '../../src/commands/colony-access.js';
import { openColonyFromOptions } from '../../src/commands/colony-open.js';
import { startListener } from '../support/fake-colony.js';

const SECRET = 'ghp_SECRETgitCredential0123456789';
const dir = mkdtempSync(join(tmpdir(), 'coral-runtime-trust-'));
const db = join(dir, 'x.duckdb');
const env = { CORAL_HOME: dir } as NodeJS.ProcessEnv;
const secretFile = join(dir, 'git-credentials');
const NONCE = 'a'.repeat(32);

beforeAll(async () => {
  await (await openColonyFromOptions({ db }, { create: true })).close();
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A record as an attacker would write it: pid 1 is always alive. */
function plant(url: string, extra: Record<string, unknown> = {}): void {
  writeFileSync(runtimePath(db), JSON.stringify({ pid: 1, db, url, mcp: true, otlpGrpc: null, tokenFile: null, nonce: NONCE, startedAt: '', ...extra }), { mode: 0o644 });
}

function cleanup(): void {
  rmSync(runtimePath(db), { force: true });
  rmSync(tokenPath(db), { force: true });
}

/** Resolves and reads through the command path; what the listener saw, and the warnings. */
async function readThrough(): Promise<{ choice: { db?: string; colony?: string; token?: string }; warnings: string[] }> {
  const warnings: string[] = [];
  const choice = await resolveColonyChoice({ db }, { env, notify: (l) => warnings.push(l) });
  const access = await openColonyAccess({ db });
  try {
    await access.status();
  } finally {
    await access.close();
  }
  return { choice, warnings };
}

describe('a crafted serve.json', () => {
  const cases: [string, (url: string) => void, RegExp][] = [
    ['names any file as the token file', (url) => plant(url, { tokenFile: secretFile }), /names a token file coral did not write/],
    ['names a colony beyond this machine', () => plant('http://192.0.2.1:4318'), /not a colony on this machine/],
    ['is writable by others', (url) => { plant(url); chmodSync(runtimePath(db), 0o666); }, /writable by others/],
    ['puts a symlink to a secret at the token path', (url) => { plant(url, { tokenFile: tokenPath(db) }); symlinkSync(secretFile, tokenPath(db)); }, /symbolic link/],
    ['leaves the token file readable by others', (url) => { plant(url, { tokenFile: tokenPath(db) }); writeFileSync(tokenPath(db), SECRET, { mode: 0o644 }); chmodSync(tokenPath(db), 0o644); }, /readable or writable by others/],
  ];
  for (const [what, setup, why] of cases) {
    it(`that ${what} is ignored with a warning, and nothing is sent to it`, async () => {
      const listener = await startListener({ nonce: NONCE, token: SECRET });
      try {
        setup(listener.url);
        const { choice, warnings } = await readThrough();
        expect(choice).toEqual({ db });
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(why);
        expect(warnings[0]).toContain(`; opening ${db} directly`);
        expect(listener.authorizations.filter((a) => a !== undefined)).toEqual([]);
      } finally {
        cleanup();
        await listener.close();
      }
    });
  }

  it('whose listener knows the nonce but not the token gets no token (the token file is ours, 600)', async () => {
    // Everything on disk looks right; only the process at the URL is not the colony.
    const listener = await startListener({ nonce: NONCE, token: 'a guess' });
    try {
      plant(listener.url, { tokenFile: tokenPath(db) });
      writeFileSync(tokenPath(db), `${SECRET}\n`, { mode: 0o600 });
      const { choice, warnings } = await readThrough();
      expect(choice).toEqual({ db });
      expect(warnings[0]).toMatch(/does not hold the colony's token/);
      expect(listener.authorizations.filter((a) => a !== undefined)).toEqual([]);
    } finally {
      cleanup();
      await listener.close();
    }
  });

  it('a listener that relays the challenge to the real colony gets no token: the proof binds the URL the colony listens on', async () => {
    const real = await startListener({ nonce: NONCE, token: SECRET });
    const authorizations: (string | undefined)[] = [];
    const relay = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      get(`${real.url}${req.url ?? '/'}`, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    try {
      plant(`http://127.0.0.1:${(relay.address() as { port: number }).port}`, { tokenFile: tokenPath(db) });
      writeFileSync(tokenPath(db), `${SECRET}\n`, { mode: 0o600 });
      const { choice, warnings } = await readThrough();
      expect(choice).toEqual({ db });
      expect(warnings[0]).toMatch(/does not hold the colony's token/);
      expect(authorizations.length).toBeGreaterThan(0);
      expect(authorizations.filter((a) => a !== undefined)).toEqual([]);
    } finally {
      cleanup();
      await new Promise((r) => relay.close(r));
      await real.close();
    }
  });
});

describe('a stale serve.json whose pid was reused', () => {
  it('is ignored when nothing answers at its URL, and the file is opened', async () => {
    const gone = await startListener();
    await gone.close();
    plant(gone.url);
    try {
      const { choice, warnings } = await readThrough();
      expect(choice).toEqual({ db });
      expect(warnings[0]).toMatch(/does not answer \(nothing listens there\); opening .*x\.duckdb directly/);
    } finally {
      cleanup();
    }
  });

  it('is ignored when something else answers there', async () => {
    const other = await startListener();
    plant(other.url);
    try {
      const { choice, warnings } = await readThrough();
      expect(choice).toEqual({ db });
      expect(warnings[0]).toMatch(/does not answer \(it answered HTTP 404\)/);
    } finally {
      cleanup();
      await other.close();
    }
  });
});

describe('the genuine colony', () => {
  it('is used, with its token, once it answered the challenge (so the tests above could see a leak)', async () => {
    const colony = await startListener({ nonce: NONCE, token: SECRET });
    const forget = writeRuntime({ db, url: colony.url, mcp: true, otlpGrpc: null, nonce: NONCE }, SECRET);
    try {
      expect(await findRunningColony(db)).toMatchObject({ token: SECRET });
      expect(await resolveColonyChoice({ db }, { env, notify: () => undefined })).toEqual({ db: undefined, colony: colony.url, token: SECRET });
    } finally {
      forget();
      await colony.close();
    }
  });
});
