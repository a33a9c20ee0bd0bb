import { homedir } from 'node:os';
import { join } from 'node:path';

/** `~/.coral`, moved by CORAL_HOME. */
export function coralHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CORAL_HOME && env.CORAL_HOME.length > 0 ? env.CORAL_HOME : join(homedir(), '.coral');
}

export function defaultColonyDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(coralHome(env), 'colony.duckdb');
}
