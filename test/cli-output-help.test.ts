/**
 * One output convention (-o text|json|table, --json the same as -o json) on every command that
 * prints, `coral help <cmd> <sub>` for nested commands, unknown commands refused with the nearest
 * one, and `coral completion`. With the built bundle.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coralCli } from './support/coral-cli.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-out-'));
const db = join(home, 'healthy.duckdb');

const coral = coralCli({ CORAL_HOME: home, CORAL_COLONY: '' });

beforeAll(async () => {
  const load = await coral('demo', 'load', 'healthy', '--db', db, '--json');
  if (load.code !== 0) throw new Error(load.stderr);
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('-o and --json everywhere output is printed', () => {
  it('colony status, demo list and config show take -o json, the same as --json', async () => {
    for (const cmd of [['colony', 'status', '--db', db], ['demo', 'list'], ['config', 'show']]) {
      const o = await coral(...cmd, '-o', 'json');
      expect(o.code, `${cmd.join(' ')}: ${o.stderr}`).toBe(0);
      const j = await coral(...cmd, '--json');
      expect(JSON.parse(o.stdout)).toEqual(JSON.parse(j.stdout));
    }
  });

  it('query summary takes --json as -o json', async () => {
    const j = await coral('query', 'summary', '--db', db, '--since', '2h', '--json');
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toHaveProperty('standOut');
  });

  it('refuses a format a command cannot print, naming those it can, and --json with another -o', async () => {
    const text = await coral('demo', 'list', '-o', 'text');
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/--output "text" is not available here\.\n\s+This command prints as table, json\./);
    const both = await coral('colony', 'status', '--db', db, '--json', '-o', 'text');
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/--json and -o text cannot be combined/);
    const load = await coral('demo', 'load', 'healthy', '--db', db, '-o', 'table');
    expect(load.stderr).toMatch(/This command prints as text, json\./);
    const tree = await coral('query', 'summary', '--db', db, '-o', 'tree');
    expect(tree.stderr).toMatch(/This command prints as table, text, json \(span trees are for traces\)/);
  });

  it('lists -o and --json in the help of every command that prints', async () => {
    for (const cmd of [['colony', 'status'], ['demo', 'list'], ['demo', 'eval'], ['ask'], ['config', 'validate'], ['query', 'summary'], ['honeycomb', 'search']]) {
      const h = await coral(...cmd, '--help');
      expect(h.stdout, cmd.join(' ')).toMatch(/-o, --output <format>/);
      expect(h.stdout, cmd.join(' ')).toMatch(/--json +the same as -o json/);
    }
  });
});

describe('coral help', () => {
  it('prints a nested command\'s help', async () => {
    const h = await coral('help', 'colony', 'serve');
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^Usage: coral colony serve\|start \[options\]/);
    const deep = await coral('help', 'query', 'ebpf', 'http');
    expect(deep.stdout).toMatch(/^Usage: coral query ebpf http \[options\] <service>/);
    const group = await coral('query', 'help', 'ebpf', 'http');
    expect(group.stdout).toMatch(/^Usage: coral query ebpf http \[options\] <service>/);
  });

  it('refuses an unknown command with the nearest one, or the list, and exits 1', async () => {
    for (const args of [['help', 'nosuch'], ['nosuch']]) {
      const r = await coral(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/error: unknown command 'nosuch'\n\(commands: ask, colony, completion, config, demo, help, honeycomb, mcp, query\)/);
    }
    const inGroup = await coral('colony', 'help', 'nosuch');
    expect(inGroup.code).toBe(1);
    expect(inGroup.stderr).toMatch(/unknown command 'nosuch'\n\(commands: help, serve, status\)/);
    const near = await coral('help', 'colony', 'serv');
    expect(near.code).toBe(1);
    expect(near.stderr).toMatch(/unknown command 'serv'\n\(Did you mean serve\?\)/);
  });
});

describe('coral completion', () => {
  it('bash: the script, sourced, completes commands, sub-commands and options', async () => {
    const script = await coral('completion', 'bash');
    expect(script.code).toBe(0);
    const complete = async (...words: string[]) => {
      const { stdout } = await run('bash', ['-c', `eval "$SCRIPT"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _coral; printf '%s\\n' "\${COMPREPLY[@]}"`], { env: { ...process.env, SCRIPT: script.stdout } });
      return stdout.trim().split('\n');
    };
    expect(await complete('coral', 'col')).toEqual(['colony']);
    expect((await complete('coral', 'colony', '')).sort()).toEqual(['help', 'serve', 'status']);
    expect(await complete('coral', '--db', 'f', 'colony', 'serve', '--otlp-g')).toEqual(['--otlp-grpc-port']);
    expect(await complete('coral', 'query', 'ebpf', 'ht')).toEqual(['http']);
  });

  const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

  // zsh's completion system needs a terminal: compadd and compdef are stood in for, the script's logic runs in zsh.
  it.skipIf(!has('zsh'))('zsh: the script completes commands, sub-commands and options', async () => {
    const script = (await coral('completion', 'zsh')).stdout;
    const complete = async (...words: string[]) => (await run('zsh', ['-c', `compdef() { :; }; compadd() { shift; print -r -- "$*"; }; _files() { print FILES; }; eval "$SCRIPT"; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _coral`], { env: { ...process.env, SCRIPT: script } })).stdout.trim();
    expect(await complete('coral', 'col')).toBe('colony ask config mcp query honeycomb demo completion help');
    expect(await complete('coral', '--db', 'f', 'colony', '')).toBe('serve status help');
    expect(await complete('coral', 'colony', 'serve', '--otlp-g')).toContain('--otlp-grpc-port');
    expect(await complete('coral', 'demo', 'load', '')).toBe('FILES');
  });

  it.skipIf(!has('fish'))('fish: the script completes commands, sub-commands and options', async () => {
    const script = (await coral('completion', 'fish')).stdout;
    const complete = async (line: string) => (await run('fish', ['-c', `echo $SCRIPT | source; complete -C '${line}'`], { env: { ...process.env, SCRIPT: script } })).stdout.trim().split('\n');
    expect(await complete('coral col')).toEqual(['colony']);
    expect((await complete('coral --db f colony ')).sort()).toEqual(['help', 'serve', 'status']);
    expect(await complete('coral colony serve --otlp-g')).toEqual(['--otlp-grpc-port']);
  });

  it('zsh and fish scripts hold every command and option; an unknown shell is refused', async () => {
    for (const shell of ['zsh', 'fish']) {
      const s = (await coral('completion', shell)).stdout;
      expect(s).toMatch(/'query telemetry'/);
      expect(s).toMatch(/spans metrics logs/);
      expect(s).toContain('--otlp-grpc-port');
    }
    const bad = await coral('completion', 'tcsh');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/No completion for "tcsh"\.\n\s+Shells: bash, zsh, fish/);
  });
});
