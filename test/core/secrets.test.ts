import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { isPlainSecretEnv, looksLikeSecret, maskArgs, maskReference, maskUrl } from '../../src/core/secrets.js';

const KEY = 'sk-proj-AbCdEf0123456789XyZabcdef';

describe('masking', () => {
  it('keeps variable names readable and masks keys disguised as references', () => {
    expect(maskReference('env://GEMINI_API_KEY')).toBe('env://GEMINI_API_KEY');
    expect(maskReference(`env://${KEY}`)).toBe('env://****');
    expect(maskReference('env://AbCdEf0123456789XyZabcdef01')).toBe('env://****');
    expect(maskReference('keyring://coral/gemini')).toBe('keyring://****');
  });

  it('masks URL credentials and secret query values', () => {
    expect(maskUrl('https://user:pa55@mcp.example/mcp?token=abc&x=1')).toBe('https://****:****@mcp.example/mcp?token=****&x=1');
    expect(maskUrl('http://127.0.0.1:4318/mcp')).toBe('http://127.0.0.1:4318/mcp');
  });

  it('masks secret arguments: after secret-named flags, in flag=value, URLs and key-shaped values', () => {
    expect(maskArgs(['--readonly', '--token', 'abc', '--api-key=xyz', KEY, 'https://u:p@h/x', '-c', 'id > /tmp/x', 'ghp_0123456789abcdefABCDEF'])).toEqual(['--readonly', '--token', '****', '--api-key=****', '****', 'https://****:****@h/x', '-c', 'id > /tmp/x', '****']);
    expect(maskArgs(['--port', '8080', '/usr/local/bin/server', 'my-deploys-mcp'])).toEqual(['--port', '8080', '/usr/local/bin/server', 'my-deploys-mcp']);
  });

  it('tells secrets from names', () => {
    expect(looksLikeSecret('AKIAIOSFODNN7EXAMPLE')).toBe(true);
    expect(looksLikeSecret('kubernetes-deployments')).toBe(false);
    expect(looksLikeSecret('/home/user/.config/thing')).toBe(false);
    expect(isPlainSecretEnv('GITHUB_TOKEN', 'abc')).toBe(true);
    expect(isPlainSecretEnv('GITHUB_TOKEN', 'env://GITHUB_TOKEN')).toBe(false);
    expect(isPlainSecretEnv('LOG_LEVEL', 'debug')).toBe(false);
  });
});

describe('coral config show / validate never print a secret', () => {
  const run = promisify(execFile);
  const home = mkdtempSync(join(tmpdir(), 'coral-secrets-'));
  const project = mkdtempSync(join(tmpdir(), 'coral-secrets-project-'));
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });
  mkdirSync(join(project, '.coral'));
  writeFileSync(join(home, 'config.yaml'), [
    'ai:',
    '  ask:',
    `    api_keys: {google: "env://${KEY}", openai: env://OPENAI_API_KEY}`,
    'mcp_servers:',
    `  gh: {command: gh-mcp, args: ["--token", "ghp_0123456789abcdefABCDEF", "--readonly"], env: {GITHUB_TOKEN: "${KEY}", LOG_LEVEL: debug}}`,
    '  remote: {url: "https://bob:hunter2hunter2@mcp.example/mcp", token: env://REMOTE_TOKEN}',
  ].join('\n'));
  const coral = async (args: string[]) => {
    try {
      const r = await run(process.execPath, [resolve('dist/coral.js'), ...args], { cwd: project, env: { ...process.env, CORAL_HOME: home } });
      return { code: 0, out: r.stdout + r.stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };

  it('show masks disguised keys, mcp args, env values and URL credentials', async () => {
    for (const args of [['config', 'show'], ['config', 'show', '--json']]) {
      const { code, out } = await coral(args);
      expect(code).toBe(0);
      for (const secret of [KEY, 'ghp_0123456789abcdefABCDEF', 'hunter2hunter2', 'bob']) expect(out).not.toContain(secret);
      expect(out).toContain('env://OPENAI_API_KEY');
      expect(out).toContain('gh-mcp --token **** --readonly');
    }
  });

  it('validate flags plain-text secrets in mcp_servers env and args, naming the place and not the value', async () => {
    const { code, out } = await coral(['config', 'validate']);
    expect(code).not.toBe(0);
    expect(out).toMatch(/mcp_servers\.gh\.env\.GITHUB_TOKEN holds a plain-text secret/);
    expect(out).toMatch(/mcp_servers\.gh\.args\[1\] looks like a plain-text secret/);
    expect(out).not.toMatch(/LOG_LEVEL/);
    for (const secret of [KEY, 'ghp_0123456789abcdefABCDEF', 'hunter2hunter2']) expect(out).not.toContain(secret);
  });
});
