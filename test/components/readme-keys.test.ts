import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keyTablesMarkdown } from '../../components/keys/key-table.js';
import { BINDINGS, label } from '../../components/keys/registry.js';
import { COMMANDS } from '../../src/console/commands.js';

const README = new URL('../../README.md', import.meta.url);
const section = /(<!-- keys:start[^>]*-->\n)([\s\S]*?)(<!-- keys:end -->)/;

describe('the README key tables', () => {
  it('are exactly the tables built from the key registry and the command list', () => {
    const text = readFileSync(README, 'utf8');
    const m = section.exec(text);
    expect(m, 'README.md lost its <!-- keys:start --> / <!-- keys:end --> markers').not.toBeNull();
    const want = keyTablesMarkdown() + '\n';
    if (process.env.UPDATE_README_KEYS && m![2] !== want) writeFileSync(README, text.replace(section, `$1${want}$3`));
    else expect(m![2], 'README key tables are stale: run UPDATE_README_KEYS=1 npx vitest run test/components/readme-keys.test.ts').toBe(want);
  });

  it('list every binding with its keys, and every command', () => {
    const rows = keyTablesMarkdown().split('\n');
    for (const b of BINDINGS) {
      const keys = b.keys.map((k) => '`' + label(k).replace(/\|/g, '\\|') + '`').join(' ');
      expect(rows.some((r) => r.includes(`| ${keys} | ${b.description.replace(/\|/g, '\\|')} |`)), b.id).toBe(true);
    }
    for (const c of COMMANDS) expect(rows.some((r) => r.startsWith('| `' + c.usage.replace(/\|/g, '\\|') + '`')), c.name).toBe(true);
  });

  it('escape a pipe so a cell never splits the row', () => {
    const metrics = keyTablesMarkdown().split('\n').find((r) => r.startsWith('| `:metrics'))!;
    expect(metrics).toContain('[http\\|grpc\\|sql]');
    expect(metrics.replace(/\\\|/g, '').split('|')).toHaveLength(4);
  });
});
