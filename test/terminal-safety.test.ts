/**
 * Telemetry is hostile: a service that names itself with escape sequences must not clear the
 * user's screen, retitle the terminal or write the clipboard (OSC 52) when the CLI prints it. The
 * built bundle, against a colony file holding such a span.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeExport } from '../src/colony/otlp/ingest.js';
import { ColonyStore } from '../src/colony/store/store.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-esc-'));
const db = join(home, 'evil.duckdb');
const EVIL_SERVICE = 'evil\u001b[2J\u001b]0;PWNED\u0007svc';
/** Raw control characters a terminal acts on (tab and newline aside), C1 and bidi overrides too. */
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

async function coral(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, CORAL_HOME: home, CORAL_COLONY: '', NO_COLOR: '1' }, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  const now = BigInt(Date.now()) * 1_000_000n;
  const body = {
    resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: EVIL_SERVICE } }] },
      scopeSpans: [{
        spans: [{
          traceId: '0123456789abcdef0123456789abcdef', spanId: '0123456789abcdef', name: 'GET /x\u001b]52;c;ZWNobyBwd25lZA==\u0007', kind: 2,
          startTimeUnixNano: String(now - 2_000_000_000n), endTimeUnixNano: String(now - 1_000_000_000n),
          status: { code: 2, message: 'boom\u009b31m\u202eexe.txt' },
          attributes: [{ key: 'http.route', value: { stringValue: '/x\r/spoofed' } }],
        }],
      }],
    }],
  };
  const store = await ColonyStore.open({ path: db });
  await store.write(decodeExport('traces', 'json', Buffer.from(JSON.stringify(body))).batch);
  await store.close();
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('hostile telemetry on the terminal', () => {
  it('prints traces with the escape sequences made visible, in text, table and tree forms', async () => {
    for (const o of ['text', 'table', 'tree']) {
      const r = await coral('query', 'traces', '--db', db, '--since', '10m', '-o', o);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, o).not.toMatch(RAW);
      expect(r.stdout, o).toContain('evil\\x1b[2J\\x1b]0;PWNED\\x07svc');
    }
    const text = await coral('query', 'traces', '--db', db, '--since', '10m');
    expect(text.stdout).toContain('GET /x\\x1b]52;c;ZWNobyBwd25lZA==\\x07');
    expect(text.stdout).toContain('boom\\x9b31m\\u202eexe.txt');
  });

  it('prints JSON that parses to the stored values, with nothing raw in it', async () => {
    const r = await coral('query', 'traces', '--db', db, '--since', '10m', '-o', 'json');
    expect(r.stdout).not.toMatch(RAW);
    const [trace] = (JSON.parse(r.stdout) as { traces: { services: string[]; roots: { service: string; name: string }[] }[] }).traces;
    expect(trace.roots[0].service).toBe(EVIL_SERVICE);
    expect(trace.roots[0].name).toBe('GET /x\u001b]52;c;ZWNobyBwd25lZA==\u0007');
  });

  it('lists the service in colony status, and names it in an error, made visible', async () => {
    const status = await coral('colony', 'status', '--db', db);
    expect(status.stdout).not.toMatch(RAW);
    expect(status.stdout).toContain('evil\\x1b[2J');
    // JSON keeps the name as sent (escaped as JSON does), for scripts.
    const json = await coral('colony', 'status', '--db', db, '--json');
    expect(json.stdout).not.toMatch(RAW);
    expect((JSON.parse(json.stdout) as { services: { serviceName: string }[] }).services.map((x) => x.serviceName)).toEqual([EVIL_SERVICE]);
    const bad = await coral('query', 'metrics', '\u001b]52;c;eA==\u0007', '--db', db, '--since', '5x');
    expect(bad.code).toBe(1);
    expect(bad.stderr).not.toMatch(RAW);
    const unknown = await coral('query', 'metrics', 'evl', '--db', db);
    expect(unknown.stdout).not.toMatch(RAW);
    expect(unknown.stdout).toContain('Known services, closest first: evil\\x1b');
  });
});
