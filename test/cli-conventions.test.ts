/**
 * CLI conventions, with the built bundle: help everywhere, unknown commands with a suggestion, root
 * options applied or refused, reads that never create databases, one set of -o formats, time flags,
 * option ranges as help states them, JSON forms, Honeycomb sample columns and progress.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'coral-conv-'));
const db = join(home, 'loaded.duckdb');

async function coral(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/coral.js', ...args], { env: { ...process.env, CORAL_HOME: home, CORAL_COLONY: '' }, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  const load = await coral('demo', 'load', 'payment-failure', '--db', db);
  if (load.code !== 0) throw new Error(load.stderr);
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('help and unknown commands', () => {
  it('answers `coral help`, `coral help <cmd>` and `<cmd> help <sub>`', async () => {
    const top = await coral('help');
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^Usage: coral \[options\] \[command\]/);
    const query = await coral('help', 'query');
    expect(query.stdout).toMatch(/^Usage: coral query \[options\] \[command\]/);
    const sub = await coral('query', 'help', 'summary');
    expect(sub.stdout).toMatch(/^Usage: coral query summary \[options\]/);
  });

  it('says which command is unknown and suggests the nearest, at every level', async () => {
    const top = await coral('querry', 'summary');
    expect(top.code).toBe(1);
    expect(top.stderr).toMatch(/unknown command 'querry'\n\(Did you mean query\?\)/);
    const nested = await coral('query', 'summry');
    expect(nested.code).toBe(1);
    expect(nested.stderr).toMatch(/unknown command 'summry'\n\(Did you mean summary\?\)/);
  });
});

describe('root options before a command', () => {
  it('hands --db to the command that takes it', async () => {
    const status = await coral('--db', db, 'colony', 'status', '--json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ path: db });
  });

  it('refuses an option the command does not take, and two different values', async () => {
    const honeycomb = await coral('--db', db, 'honeycomb', 'summary');
    expect(honeycomb.code).toBe(1);
    expect(honeycomb.stderr).toMatch(/--db does not apply to `coral honeycomb summary`/);
    const twice = await coral('--db', db, 'query', 'summary', '--db', join(home, 'other.duckdb'));
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/--db is given twice with different values/);
  });
});

describe('reads never create databases', () => {
  it('names the mistyped path and creates neither the file nor its folders', async () => {
    const missing = join(home, 'typo', 'colony.duckb');
    for (const args of [['query', 'summary', '--db', missing], ['colony', 'status', '--db', missing], ['--db', missing, 'query', 'summary']]) {
      const r = await coral(...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`No colony database at ${missing}.`);
    }
    expect(existsSync(join(home, 'typo'))).toBe(false);
  });

  it('explains an empty machine instead of creating the default colony', async () => {
    const r = await coral('query', 'summary');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No colony database at .*colony\.duckdb\.\n\s+Start the colony with `coral colony serve`/);
    expect(existsSync(join(home, 'colony.duckdb'))).toBe(false);
  });
});

describe('output formats', () => {
  it('prints every table of the summary with -o table', async () => {
    const r = await coral('query', 'summary', '--db', db, '--since', '2h', '-o', 'table');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Stands out:\n┌/);
    expect(r.stdout).toMatch(/All services:\n┌/);
    expect(r.stdout).toMatch(/Events:\n┌.*\n│ time/);
    expect(r.stdout).toMatch(/Where to look first: payment/);
  });

  it('prints traces as a table, and refuses span trees where there are none', async () => {
    const traces = await coral('query', 'traces', 'checkout', '--db', db, '--since', '2h', '--max', '2', '-o', 'table');
    expect(traces.stdout).toMatch(/│ trace +│ start +│ duration │ spans │ services/);
    const tree = await coral('query', 'metrics', 'payment', '--db', db, '-o', 'tree');
    expect(tree.code).toBe(1);
    expect(tree.stderr).toMatch(/--output "tree" is not available here\.\n\s+This command prints as table, text, json \(span trees are for traces\)/);
    const bogus = await coral('query', 'traces', '--db', db, '-o', 'yaml');
    expect(bogus.stderr).toMatch(/This command prints as table, json, tree, text/);
  });

  it('states option ranges as the help does', async () => {
    const help = await coral('query', 'traces', '--help');
    expect(help.stdout).toMatch(/--max <n> +how many traces \(1-50\)/);
    const r = await coral('query', 'traces', '--db', db, '--max', '100');
    expect(r.stderr).toMatch(/Invalid --max "100"\.\n\s+Expected a whole number from 1 to 50\./);
    const zero = await coral('query', 'traces', '--db', db, '--max', '0');
    expect(zero.stderr).toMatch(/from 1 to 50/);
  });

  it('refuses a bad tool argument before loading a demo', async () => {
    const r = await coral('query', 'trace', 'zzz', '--demo', 'payment-failure');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Invalid input for coral_query_traces: trace_id: trace_id must be 32 hexadecimal characters/);
    expect(r.stderr).not.toMatch(/loading demo/);
  });

  it('offers no window for a trace by id, which is read whatever its time', async () => {
    const r = await coral('query', 'trace', '5b8efff798038103d269b633813fc60c', '--db', db, '--since', '2h');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown option '--since'/);
  });
});

describe('time flags', () => {
  it('takes now-relative times and epoch seconds, and refuses ambiguous digits', async () => {
    const rel = await coral('query', 'summary', '--db', db, '--from', 'now-2h', '-o', 'json');
    expect(rel.code).toBe(0);
    const { from, to } = JSON.parse(rel.stdout) as { from: string; to: string };
    expect(Date.parse(to) - Date.parse(from)).toBeCloseTo(2 * 3600_000, -4);
    const epochS = Math.floor(Date.now() / 1000) - 3600;
    const sec = await coral('query', 'summary', '--db', db, '--from', String(epochS), '-o', 'json');
    // The window is whole seconds back from now: within a second of the asked start, not in 1970.
    expect(Math.abs(Date.parse((JSON.parse(sec.stdout) as { from: string }).from) - epochS * 1000)).toBeLessThan(1000);
    const odd = await coral('query', 'summary', '--db', db, '--from', '17641404000');
    expect(odd.code).toBe(1);
    expect(odd.stderr).toMatch(/Ambiguous time "17641404000": 11 digits/);
  });
});

describe('JSON forms', () => {
  it('config validate --json reports problems as data', async () => {
    writeFileSync(join(home, 'config.yaml'), 'ai:\n  ask:\n    api_keys:\n      openai: env://CORAL_TEST_UNSET_KEY\nmcp_servers:\n  ghost:\n    command: coral-no-such-command\n');
    const r = await coral('config', 'validate', '--json');
    rmSync(join(home, 'config.yaml'));
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { valid: boolean; problems: string[] };
    expect(out.valid).toBe(false);
    expect(out.problems).toEqual([
      expect.stringMatching(/^ai\.ask\.api_keys\.openai: .*CORAL_TEST_UNSET_KEY, which is not set/),
      expect.stringMatching(/^mcp_servers\.ghost\.command: "coral-no-such-command" is not found on PATH/),
    ]);
  });

  it('config show prints every section as text, JSON only with --json', async () => {
    const text = await coral('config', 'show');
    expect(text.stdout).not.toMatch(/^\s*[{[]/m);
    for (const section of ['ai:', 'colony:', 'colonies: (none)', 'honeycomb:', 'tools:']) expect(text.stdout).toContain(section);
    const json = JSON.parse((await coral('config', 'show', '--json')).stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['files', 'ai', 'colony', 'colonies', 'honeycomb', 'tools']);
  });
});

describe('config init', () => {
  it('says it needs a terminal when stdin is not one, and what to use instead', async () => {
    const r = await coral('config', 'init');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/coral config init asks questions, so it needs a terminal.*\n\s+In scripts set keys one by one: coral config set/);
    expect(existsSync(join(home, 'config.yaml'))).toBe(false);
  });
});

describe('honeycomb summary', () => {
  it('shows sample columns in table output, none with --no-samples, and progress on stderr', async () => {
    const two = await coral('honeycomb', 'summary', '--samples', '2');
    expect(two.stdout).toMatch(/│ sample columns +│/);
    expect(two.stdout).toMatch(/│ frontend .*│ app\.cart\.items\.count, app\.product\.id +│/);
    expect(two.stderr).toMatch(/reading datasets: 100% \(12 of 12\)/);
    const none = await coral('honeycomb', 'summary', '--no-samples');
    expect(none.stdout).not.toMatch(/sample columns/);
  });
});
