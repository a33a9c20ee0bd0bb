import { expect } from 'vitest';
import { answer, firstDifference } from './parity.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import type { Colony } from '../../../src/colony/store/colony.js';
import type { Nanos } from '../../../src/core/time.js';

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
