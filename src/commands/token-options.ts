import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { CoralError } from '../core/errors.js';

const MAX_TOKEN_FILE = 64 * 1024;

/** The token in a --token-file: its text without surrounding whitespace; a clear error otherwise. */
export function readTokenFile(path: string): string {
  let text: string;
  try {
    if (!statSync(path).isFile()) throw new CoralError(`--token-file ${path} is not a file.`);
    if (statSync(path).size > MAX_TOKEN_FILE) throw new CoralError(`--token-file ${path} is larger than a token (${MAX_TOKEN_FILE} bytes at most).`);
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if (err instanceof CoralError) throw err;
    throw new CoralError(`Cannot read --token-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  }
  if (!text) throw new CoralError(`--token-file ${path} is empty.`);
  return text;
}

/**
 * --token SECRET is in the process list for every user of the machine (ps, /proc/PID/cmdline), so
 * --token-file PATH and CORAL_COLONY_TOKEN are the documented ways. The flag still works, with a
 * warning. Runs before every command's action: the file becomes the command's `token` option.
 */
export function applyTokenOptions(leaf: Command, warn: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): void {
  if (!leaf.options.some((o) => o.long === '--token')) return;
  const file = leaf.getOptionValue('tokenFile') as string | undefined;
  const given = leaf.getOptionValueSource('token') === 'cli';
  if (file !== undefined && given) throw new CoralError('--token and --token-file are both given.', 'Give one: --token-file PATH (or CORAL_COLONY_TOKEN) keeps the token out of the process list.');
  if (given) warn('coral: --token is visible to other users of this machine in the process list (ps); use --token-file PATH or CORAL_COLONY_TOKEN instead');
  if (file !== undefined) leaf.setOptionValueWithSource('token', readTokenFile(file), 'cli');
}
