import { COMMANDS } from '../../src/console/commands.js';
import { BINDINGS, SCOPE_TITLES, label } from './registry.js';

/** Markdown cells must not break the table: a `|` in a key or description is escaped. */
const cell = (s: string) => s.replace(/\|/g, '\\|');
const code = (s: string) => '`' + s + '`';

/**
 * The README's key and command tables, built from the same registry as the hints and the `?` help,
 * so the documentation cannot drift from what the keys do (a test compares the README with this).
 */
export function keyTablesMarkdown(): string {
  const rows = ['| Where | Keys | What it does |', '|---|---|---|'];
  for (const [scope, title] of SCOPE_TITLES) {
    for (const b of BINDINGS.filter((x) => x.scope === scope)) {
      rows.push(`| ${title} | ${b.keys.map((k) => code(cell(label(k)))).join(' ')} | ${cell(b.description)} |`);
    }
  }
  const commands = ['| Command | What it does |', '|---|---|', ...COMMANDS.map((c) => `| ${code(cell(c.usage))} | ${cell(c.description)} |`)];
  return [...rows, '', ...commands].join('\n');
}
