import type { Command } from 'commander';
import { likelyMeant } from '../core/closest.js';

/** One command of the CLI as completion sees it: its path from the root ('' for coral itself), sub-commands and flags. */
export interface CommandNode {
  path: string;
  subcommands: string[];
  options: string[];
}

/** Every command under `root`, the root first; each takes -h/--help besides its own options. */
export function commandTree(root: Command): CommandNode[] {
  const nodes: CommandNode[] = [];
  const visit = (cmd: Command, path: string) => {
    const options = cmd.options.flatMap((o) => [o.short, o.long]).filter((f): f is string => f !== undefined);
    nodes.push({ path, subcommands: cmd.commands.map((c) => c.name()), options: [...options, '-h', '--help'] });
    for (const sub of cmd.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(root, '');
  return nodes;
}

/** The command at `path` below root, or the first name that is not a command there. */
export function findCommand(root: Command, path: readonly string[]): { found: Command } | { unknown: string; within: Command } {
  let cmd = root;
  for (const name of path) {
    const next = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!next) return { unknown: name, within: cmd };
    cmd = next;
  }
  return { found: cmd };
}

/** Commander's wording for an unknown command, with the likeliest one meant, else the ones there are. */
export function unknownCommandMessage(name: string, within: Command): string {
  const names = within.commands.map((c) => c.name());
  const meant = likelyMeant(name, names);
  return `error: unknown command '${name}'\n${meant ? `(Did you mean ${meant}?)` : `(commands: ${[...names].sort().join(', ')})`}`;
}

/** `coral help [command...]`: the help of the command at that path, however deep (commander's own help command reads one name). */
export function showHelpFor(root: Command, path: readonly string[]): void {
  const r = findCommand(root, path);
  if ('unknown' in r) r.within.error(unknownCommandMessage(r.unknown, r.within), { exitCode: 1, code: 'commander.unknownCommand' });
  else r.found.outputHelp();
}

/**
 * Gives every command with sub-commands a `help [command...]` that reaches any depth, in place of
 * commander's, which reads one name (`coral help colony serve` printed colony's help).
 */
export function addNestedHelp(cmd: Command): void {
  if (cmd.commands.length === 0) return;
  for (const sub of [...cmd.commands]) addNestedHelp(sub);
  cmd.helpCommand(false);
  cmd.command('help [command...]').description('display help for command').action((path: string[]) => showHelpFor(cmd, path));
}
