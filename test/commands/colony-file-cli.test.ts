/**
 * A crafted colony file through the commands that open one (the built bundle): `coral query`,
 * `coral mcp` (a real MCP client over stdio) and `coral ask` refuse it with what was found, and
 * the secret file its views and macros read never appears in what they print or serve. A command
 * that only reads (`coral colony status`) leaves a crash's log as it was, and says it was replayed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { coralCli } from '../support/coral-cli.js';
import { type CraftedColonies, craftColonies } from '../support/crafted-colony.js';

const home = mkdtempSync(join(tmpdir(), 'coral-colony-file-cli-'));
const coral = coralCli({ CORAL_HOME: home, NO_COLOR: '1' }, 60_000);
let files: CraftedColonies;
beforeAll(async () => {
  files = await craftColonies(home);
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const REFUSAL = 'is not a colony file as coral writes one, so it was not read';

describe('a crafted colony file, through the commands', { timeout: 120_000 }, () => {
  it('coral query traces --db refuses the view trick, and prints nothing of the secret', async () => {
    const r = await coral('query', 'traces', '--db', files.view, '--since', '1h');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${files.view} ${REFUSAL}: main.otel_traces (view)`);
    expect(r.stdout + r.stderr).not.toContain(files.secret);
    // The file coral wrote answers the same command.
    const plain = await coral('query', 'traces', '--db', files.plain, '--since', '1h');
    expect(plain.stdout, plain.stderr).toContain('GET /cart');
  });

  it('coral ask --db refuses the macro trick before any tool runs', async () => {
    const r = await coral('ask', '--db', files.macro, 'what is failing?');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${files.macro} ${REFUSAL}: main.any_value (macro)`);
    expect(r.stdout + r.stderr).not.toContain(files.secret);
  });

  for (const kind of ['view', 'macro'] as const) {
    it(`coral mcp --db refuses the ${kind} trick: the client gets no tools, and no secret`, async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/coral.js', 'mcp', '--db', files[kind]], env: { ...process.env, CORAL_HOME: home } as Record<string, string>, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new Client({ name: 'coral-test', version: '1' });
      const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
      await expect(client.connect(transport)).rejects.toThrow();
      await closed;
      expect(stderr).toContain(REFUSAL);
      expect(stderr).not.toContain(files.secret);
    });
  }
});

describe('coral colony status on a crashed colony', { timeout: 120_000 }, () => {
  it('reads the crash log without folding it into the file, and says so', async () => {
    const path = join(home, 'crashed.duckdb');
    await new Promise((resolve) => execFile(process.execPath, ['--import', 'tsx', 'test/support/crash-writer.ts', path, '500', '5']).on('exit', resolve));
    const wal = statSync(`${path}.wal`).size;
    const r = await coral('colony', 'status', '--db', path);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('spans 500');
    expect(r.stderr).toMatch(/coral: The log left by a crash \(\d+ commits, .*\) was replayed in memory; the file and its log were only read\./);
    expect(existsSync(`${path}.wal`) && statSync(`${path}.wal`).size).toBe(wal);
  });
});
