import { expect } from 'vitest';
import { answer, firstDifference } from './parity.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import type { Nanos } from '../../../src/core/time.js';
import { printToolOutput } from '../../../src/commands/query-output.js';
import { runTool } from '../../../src/colony/tools/run.js';
import { toolByName } from '../../../src/colony/tools/index.js';
import { createToolContext } from '../../../src/colony/tools/types.js';

/** A DuckDB colony and a chdb one under `dir`, both loaded by `load`, closed after `check`. */
export async function withBothBackends(dir: string, database: string, load: (s: Colony) => Promise<void>, check: (duck: Colony, ch: Colony) => Promise<void>): Promise<void> {
  const duck = await ColonyStore.open({ path: ':memory:' });
  const ch = await ClickHouseStore.open({ target: { kind: 'chdb', dir, database }, create: true });
  try {
    await load(duck);
    await load(ch);
    await check(duck, ch);
  } finally {
    await ch.close();
    await duck.close();
  }
}

/** Each tool call answered alike by both: the same text, the same structured result (float rounding aside). */
export async function expectSameAnswers(duck: Colony, ch: Colony, now: Nanos, calls: readonly (readonly [string, Record<string, unknown>])[]): Promise<void> {
  for (const [tool, args] of calls) {
    const [a, b] = await Promise.all([answer(duck, now, tool, args), answer(ch, now, tool, args)]);
    expect(b.text, `${tool} ${JSON.stringify(args)}`).toBe(a.text);
    expect(firstDifference(a.structured, b.structured), `${tool} ${JSON.stringify(args)}`).toBeNull();
  }
}

/** A DuckDB colony alone (runs where chdb is not installed), loaded, checked, closed. */
export async function withDuckDB(load: (s: Colony) => Promise<void>, check: (duck: Colony) => Promise<void>): Promise<void> {
  const duck = await ColonyStore.open({ path: ':memory:' });
  try {
    await load(duck);
    await check(duck);
  } finally {
    await duck.close();
  }
}

/** What `coral query ...` prints as a table for a tool's answer. */
export async function cliTable(store: Colony, now: Nanos, tool: string, args: Record<string, unknown>): Promise<string> {
  const def = toolByName(tool);
  if (!def) throw new Error(`no tool ${tool}`);
  const out = await runTool(def, createToolContext(store, () => now), args);
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((c: string) => chunks.push(c) > 0) as typeof process.stdout.write;
  try {
    printToolOutput(tool, out, 'table');
  } finally {
    process.stdout.write = write;
  }
  return chunks.join('');
}
