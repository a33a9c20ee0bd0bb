import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coralCli } from '../support/coral-cli.js';

const home = mkdtempSync(join(tmpdir(), 'coral-timeseries-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const coral = coralCli({ CORAL_HOME: home, NO_COLOR: '1' }, 60_000);
const SPARK = /^[▁▂▃▄▅▆▇█ ]+$/;

/** The cells of a cli-table3 row: `│ a │ b │`. */
const cells = (line: string) => line.split('│').slice(1, -1).map((c) => c.trim());

describe('coral query timeseries (the built bundle)', { timeout: 180_000 }, () => {
  it('prints a table whose last column is the sparkline over the steps, the onset below it', async () => {
    const r = await coral('query', 'timeseries', 'payment', '--signal', 'errors', '--demo', 'payment-failure');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Window: last 1h');
    expect(lines[1]).toBe('errors (unit {error}) [OTLP]');
    const head = cells(lines.find((l) => l.includes('series')) ?? '');
    expect(head.slice(0, 5)).toEqual(['series', 'samples', 'min', 'max', 'last']);
    expect(head[5]).toMatch(/^60 x 1m, \d\d:\d\d-\d\d:\d\d UTC$/);
    const row = lines.find((l) => l.startsWith('│ payment')) ?? '';
    const spark = row.split('│').slice(-2)[0].slice(1, -1);
    expect([...spark].length).toBeGreaterThanOrEqual(60);
    expect(spark).toMatch(SPARK);
    // Quiet before the onset, errors after it.
    expect(spark.slice(0, 30)).toMatch(/^[▁ ]+$/);
    expect(spark.slice(40)).toMatch(/[▂▃▄▅▆▇█]/);
    expect(r.stdout).toMatch(/^Onset: errors began to rise at \d\d:\d\d UTC \(step 3[3-7]\), as coral_query_summary dates it\.$/m);
  });

  it('prints the structured result with -o json; a metric by name grouped by service', async () => {
    const r = await coral('query', 'timeseries', '--signal', 'metric', '--metric', 'process.memory.usage', '--group-by', 'service.name', '--limit', '2', '--since', '30m', '--demo', 'payment-failure', '-o', 'json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { unit: string; metricType: string; step: { text: string; count: number }; series: { label: string; other: boolean; points: (number | null)[] }[] };
    expect([out.unit, out.metricType, out.step.text, out.step.count]).toEqual(['By', 'gauge', '1m', 30]);
    expect(out.series.map((s) => s.other)).toEqual([false, false, true]);
    for (const s of out.series) expect(s.points).toHaveLength(30);
  });

  it('refuses a bad signal, a bad --attr and a bad --step before loading anything, saying what is accepted', async () => {
    const bad = await coral('query', 'timeseries', 'payment', '--signal', 'latency', '--demo', 'payment-failure');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/signal must be one of: requests, errors, error_rate, p50, p95, p99, latency_heatmap, metric, logs/);
    expect(bad.stderr).not.toMatch(/loading demo/);
    const attr = await coral('query', 'timeseries', 'payment', '--attr', 'k8s.pod.name', '--demo', 'payment-failure');
    expect(attr.stderr).toMatch(/Invalid --attr "k8s\.pod\.name"/);
    const step = await coral('query', 'timeseries', 'payment', '--step', 'often', '--demo', 'payment-failure');
    expect(step.stderr).toMatch(/step must be a duration like 10s, 1m, 5m or 1h/);
    expect(step.stderr).not.toMatch(/loading demo/);
  });
});
