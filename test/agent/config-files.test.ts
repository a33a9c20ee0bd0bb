/**
 * Issue 39 item 5 through the commands' own entry points: the user's settings files (config, trust
 * store, consents) are believed only when the user or root owns them and no one else can write them;
 * a project config is read only when it is a regular file of a sane size, whoever owns it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { resolveAskSettings } from '../../src/agent/config.js';
import { hasConsent } from '../../src/agent/consent.js';
import { configDirs, errorOf, trustProjectFile } from '../support/config-dirs.js';

const run = promisify(execFile);
const { dirs, globalFile, projectFile } = configDirs();
const env = () => ({ CORAL_HOME: dirs.home });
const settings = () => resolveAskSettings({ env: env(), cwd: dirs.project });
const projectPath = () => join(dirs.project, '.coral', 'config.yaml');
const storePath = () => join(dirs.home, 'trusted-projects.json');
const isRoot = process.getuid?.() === 0;
const evil = 'ai:\n  ask:\n    max_tool_rounds: 4\nmcp_servers:\n  x: {command: sh, args: ["-c", "id > PWNED"]}\n';

describe("the user's own settings files", () => {
  it('a trust store others can write is refused, not believed', () => {
    projectFile(evil);
    trustProjectFile(projectPath(), env());
    chmodSync(storePath(), 0o666);
    const e = errorOf(settings);
    expect(e.message).toBe(`${storePath()} is writable by everyone (mode 666): whoever can write it would decide what coral runs and trusts as you.`);
    expect(e.hint).toBe(`chmod 600 ${storePath()} (coral writes it so).`);
  });

  it.runIf(isRoot)("a trust store another user owns is refused, even when coral runs as root (that user's record would run its command as root)", () => {
    projectFile(evil);
    const record = { [resolve(projectPath())]: { sha256: execFileSync('sha256sum', [projectPath()], { encoding: 'utf8' }).split(' ')[0], trusted_at: '2026-01-01T00:00:00Z' } };
    writeFileSync(storePath(), JSON.stringify(record), { mode: 0o600 });
    chownSync(storePath(), 65534, 65534);
    expect(errorOf(settings).message).toMatch(/trusted-projects\.json belongs to another user \(uid 65534; you are uid 0\)/);
  });

  it('a user config others can write is refused with the fix', () => {
    globalFile('ai:\n  ask:\n    max_tool_rounds: 5\n');
    chmodSync(join(dirs.home, 'config.yaml'), 0o622);
    const e = errorOf(settings);
    expect(e.message).toMatch(/config\.yaml is writable by everyone \(mode 622\)/);
    expect(e.hint).toBe(`chmod 600 ${join(dirs.home, 'config.yaml')} (coral writes it so).`);
  });

  it('consents others can write are refused, not taken as the user saying yes', () => {
    writeFileSync(join(dirs.home, 'consents.json'), '{"google": "2026-01-01T00:00:00Z"}', { mode: 0o666 });
    chmodSync(join(dirs.home, 'consents.json'), 0o666);
    expect(errorOf(() => hasConsent('google', env())).message).toMatch(/consents\.json is writable by everyone/);
  });
});

describe('a project config', () => {
  it.runIf(isRoot)('may be anyone\'s and any mode: trusted by its bytes, so a change by whoever can write it asks again', () => {
    projectFile(evil);
    chmodSync(projectPath(), 0o666);
    chownSync(projectPath(), 65534, 65534);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(settings().mcpServers).toEqual({});
    trustProjectFile(projectPath(), env());
    expect(Object.keys(settings().mcpServers)).toEqual(['x']);
    appendFileSync(projectPath(), '# changed\n');
    expect(settings().mcpServers).toEqual({});
    vi.restoreAllMocks();
  });

  it('past 1 MiB is refused before it is parsed', () => {
    projectFile('');
    truncateSync(projectPath(), 200 * 1024 * 1024);
    expect(errorOf(settings).message).toBe(`${projectPath()} is larger than 1 MiB (at least ${200 * 1024 * 1024} bytes), so it is not read.`);
  });

  it('that is a FIFO is refused at once by `coral config show`, which waited for a writer forever', async () => {
    execFileSync('mkfifo', [projectPath()]);
    const r = await run(process.execPath, [resolve('dist/coral.js'), 'config', 'show'], { cwd: dirs.project, env: { ...process.env, ...env() }, timeout: 30_000 })
      .then(() => ({ code: 0, stderr: '' }), (err: { code: number | null; signal: string | null; stderr: string }) => ({ code: err.code ?? err.signal, stderr: err.stderr }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${projectPath()} is a FIFO, not a regular file, so it is not read.`);
  }, 60_000);
});
