import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A CORAL_HOME of the test file's own, for code that reads it from process.env (the console's
 * engine): `use(yaml)` points CORAL_HOME at it, with that config.yaml. After the file's tests the
 * variable is put back and the folder removed.
 */
export function tempCoralHome(name: string): { home: string; use(configYaml?: string): void } {
  const home = mkdtempSync(join(tmpdir(), `coral-${name}-`));
  const saved = process.env.CORAL_HOME;
  afterAll(() => {
    if (saved === undefined) delete process.env.CORAL_HOME;
    else process.env.CORAL_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  });
  const use = (configYaml = '') => {
    process.env.CORAL_HOME = home;
    writeFileSync(join(home, 'config.yaml'), configYaml);
  };
  return { home, use };
}
