import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chdbPlaces } from '../../../src/colony/store/clickhouse/client.js';
import { packageRoot } from '../../../src/core/package-root.js';
import { coralCli } from '../../support/coral-cli.js';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';

describe('where coral looks for chdb', () => {
  it('CORAL_CHDB_PATH first, then .cache/chdb under the package root', () => {
    expect(chdbPlaces({}, '/opt/coral')).toEqual(['/opt/coral/.cache/chdb']);
    expect(chdbPlaces({ CORAL_CHDB_PATH: '/srv/chdb' }, '/opt/coral')).toEqual(['/srv/chdb', '/opt/coral/.cache/chdb']);
  });

  const dir = mkdtempSync(join(tmpdir(), 'coral-chdb-places-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it.skipIf(!HAVE_CHDB)(`the CLI finds .cache/chdb with no CORAL_CHDB_PATH${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, async () => {
    expect(packageRoot()).toBe(process.cwd());
    // coralCli lays its env over the test's: the variable is removed from the test's for the run.
    const saved = process.env.CORAL_CHDB_PATH;
    delete process.env.CORAL_CHDB_PATH;
    try {
      const r = await coralCli({ CORAL_HOME: dir })('colony', 'status', '--clickhouse', `chdb:${join(dir, 'ch')}`);
      // Reaching the (empty) database means chdb loaded; without it the error names the package.
      expect(r.stderr).toMatch(/has no otel_traces table/);
      expect(r.stderr).not.toMatch(/chdb@3\.4\.0/);
    } finally {
      if (saved !== undefined) process.env.CORAL_CHDB_PATH = saved;
    }
  });
});
