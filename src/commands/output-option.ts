import { Command } from 'commander';
import { CoralError } from '../core/errors.js';

export type OutputFormat = 'table' | 'json' | 'tree' | 'text';
/** What a colony query prints as; span trees only for traces. */
export const FLAT_FORMATS: readonly OutputFormat[] = ['table', 'text', 'json'];
export const TRACE_FORMATS: readonly OutputFormat[] = ['table', 'json', 'tree', 'text'];

/**
 * One output convention for every command that prints: `-o, --output <format>` with the formats the
 * command can print, and `--json` as the same as `-o json`. Declared with `.outputs([...])` and
 * settled before the action by settleOutput (a preAction hook): after it, `output` holds the format
 * asked for (undefined: the command's default) and `json` is true exactly when it is json, so a
 * command may read either.
 */
const declared = new WeakMap<Command, readonly OutputFormat[]>();

/** commander's Command with `.outputs()`; its sub-commands are CoralCommands too. */
export class CoralCommand extends Command {
  override createCommand(name?: string): CoralCommand {
    return new CoralCommand(name);
  }

  outputs(formats: readonly OutputFormat[], note = ''): this {
    declared.set(this, formats);
    return this.option('-o, --output <format>', `${formats.join(', ')}${note}`).option('--json', 'the same as -o json');
  }
}

/** What the user asked, checked: json twice is fine, json and another format is a contradiction. */
export function chosenOutput(given: { output?: string; json?: boolean }, formats: readonly OutputFormat[]): OutputFormat | undefined {
  if (given.json && given.output !== undefined && given.output !== 'json') {
    throw new CoralError(`--json and -o ${given.output} cannot be combined.`, '--json is the same as -o json: give one of them.');
  }
  const f = given.json ? 'json' : given.output;
  if (f !== undefined && !(formats as readonly string[]).includes(f)) {
    throw new CoralError(`--output "${f}" is not available here.`, `This command prints as ${formats.join(', ')}${f === 'tree' ? ' (span trees are for traces)' : ''}.`);
  }
  return f as OutputFormat | undefined;
}

export function settleOutput(leaf: Command): void {
  const formats = declared.get(leaf);
  if (!formats) return;
  const f = chosenOutput(leaf.opts<{ output?: string; json?: boolean }>(), formats);
  leaf.setOptionValue('output', f);
  leaf.setOptionValue('json', f === 'json' ? true : undefined);
}
