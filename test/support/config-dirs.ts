import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { recordTrust } from '../../src/agent/trust.js';
import { readSettingsFile } from '../../src/core/settings-file.js';

/** A fresh CORAL_HOME and project folder per test, with writers for their config files. */
export function configDirs() {
  const dirs = { home: '', project: '' };
  beforeEach(() => {
    dirs.home = mkdtempSync(join(tmpdir(), 'coral-home-'));
    dirs.project = mkdtempSync(join(tmpdir(), 'coral-project-'));
    mkdirSync(join(dirs.project, '.coral'));
  });
  afterEach(() => {
    rmSync(dirs.home, { recursive: true, force: true });
    rmSync(dirs.project, { recursive: true, force: true });
  });
  return {
    dirs,
    globalFile: (yaml: string) => writeFileSync(join(dirs.home, 'config.yaml'), yaml),
    projectFile: (yaml: string) => writeFileSync(join(dirs.project, '.coral', 'config.yaml'), yaml),
  };
}

/** The error `f` throws (failing the test when it throws none), to assert its message and hint. */
export function errorOf(f: () => unknown): { message: string; hint?: string } {
  try {
    f();
  } catch (err) {
    return err as { message: string; hint?: string };
  }
  throw new Error('expected an error');
}

/** `coral config trust` for this project config as it is now: the bytes read once, their hash recorded. */
export function trustProjectFile(path: string, env: NodeJS.ProcessEnv): void {
  const file = readSettingsFile(path, 'anyone');
  if (!file) throw new Error(`no project config at ${path}`);
  recordTrust(file, env);
}
