import type { Command } from 'commander';
import { CoralError } from '../core/errors.js';

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The root's options (--db, --colony, --token, --model, ...) are the console's, but people write them
 * before a command too (`coral --db F query summary`). They are handed to the command that takes the
 * same option, refused when it does not, and refused when given twice with different values: never
 * silently ignored.
 */
export function applyRootOptions(root: Command, leaf: Command): void {
  if (leaf === root) return;
  for (const opt of root.options) {
    const key = opt.attributeName();
    const source = root.getOptionValueSource(key);
    if (source !== 'cli' && source !== 'env') continue;
    const value = root.getOptionValue(key) as unknown;
    const flag = opt.long ?? opt.short ?? key;
    const target = leaf.options.find((o) => o.long === opt.long);
    if (!target) {
      throw new CoralError(`${flag} does not apply to \`${commandPath(leaf)}\`.`, `Run \`${commandPath(leaf)} --help\` for its options; before a command, ${flag} means the console's option.`);
    }
    const targetKey = target.attributeName();
    const existing = leaf.getOptionValue(targetKey) as unknown;
    const leafSource = leaf.getOptionValueSource(targetKey);
    if (leafSource === 'cli' && existing !== value) {
      throw new CoralError(`${flag} is given twice with different values ("${String(value)}" and "${String(existing)}").`, `Give it once, after the command: ${commandPath(leaf)} ${flag} ...`);
    }
    leaf.setOptionValueWithSource(targetKey, value, 'cli');
  }
}
