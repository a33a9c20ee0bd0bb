import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openClickHouseColony } from '../../../src/agent/clickhouse.js';

/**
 * The notes of the chdb colony in `dir` as coral opens it (created if missing) with `configYaml` as
 * its global config, closed again: what the config's clickhouse settings made of it.
 */
export async function chdbNotesWithConfig(dir: string, configYaml: string): Promise<string | undefined> {
  const home = mkdtempSync(join(tmpdir(), 'coral-home-'));
  try {
    writeFileSync(join(home, 'config.yaml'), configYaml);
    const store = await openClickHouseColony(`chdb:${dir}`, { create: true, env: { CORAL_HOME: home, PATH: process.env.PATH } });
    try {
      return store.notes?.join('\n');
    } finally {
      await store.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
