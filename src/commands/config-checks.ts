import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { ConfigFile } from '../agent/config.js';

/** Every secret reference in the files, with the key path it sits at (first file wins a path). */
export function referencedVariables(files: ConfigFile[]): [string, string][] {
  const found = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if ((value.startsWith('env://') || value.startsWith('keyring://')) && !found.has(path)) found.set(path, value);
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
  };
  for (const f of files) walk(f, '');
  return [...found.entries()];
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where a command would be found the way a child process looks it up: a path as given, else on PATH. */
export function findCommand(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(command);
    return executable(path) ? path : null;
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(dir, command);
    if (executable(path)) return path;
  }
  return null;
}
