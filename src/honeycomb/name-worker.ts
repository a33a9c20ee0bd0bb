/**
 * The name worker: scores ranges of the tables registered with it, for the queries its partner
 * thread opens in the shared control block (name-pool-protocol.ts). It never writes to stdout.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CONTROL_WORDS, FLAGS, GEN, KEPT_TABLES, OPEN, type Registration, TABLE, THEIRS, THEIRS_DONE, moveRange, readQuery, tagOf } from './name-pool-protocol.js';
import { QueryPlan, type RangeOutputs, scoreRange } from './name-range.js';
import { NameTable } from './name-table.js';

type WaitAsync = (ctl: Int32Array, index: number, value: number) => { async: boolean; value: Promise<string> | string };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

const ctl = new Int32Array((workerData as { control: SharedArrayBuffer }).control, 0, CONTROL_WORDS);
const tables = new Map<number, { table: NameTable; outputs: RangeOutputs }>();

parentPort?.on('message', (m: Registration) => {
  tables.set(m.id, { table: new NameTable([], m.parts), outputs: m.outputs });
  for (const id of tables.keys()) if (tables.size > KEPT_TABLES) tables.delete(id);
});

/** Claims and scores open ranges of generation `gen`, from the last one down (the partner starts at the first). */
function help(gen: number): void {
  const entry = tables.get(Atomics.load(ctl, TABLE));
  if (!entry) return;
  const { table, outputs } = entry;
  const tag = tagOf(gen);
  let plan: QueryPlan | undefined;
  for (let r = table.ranges.length - 2; r >= 0; r--) {
    if (!moveRange(ctl, tag, r, OPEN, THEIRS)) continue;
    // Read after a claim: should the partner have taken this range and moved on to another query
    // meanwhile, the outputs made from it are never read (the range never ends THEIRS_DONE).
    plan ??= new QueryPlan(table, readQuery(ctl));
    scoreRange(plan, r, outputs, Atomics.load(ctl, FLAGS) === 1);
    moveRange(ctl, tag, r, THEIRS, THEIRS_DONE);
  }
}

async function serve(): Promise<void> {
  let seen = Atomics.load(ctl, GEN);
  for (;;) {
    const waited = waitAsync(ctl, GEN, seen);
    if (waited.async) await waited.value;
    const gen = Atomics.load(ctl, GEN);
    if (gen === seen) continue;
    seen = gen;
    help(gen);
  }
}

void serve();
