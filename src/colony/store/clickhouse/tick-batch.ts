/**
 * Calls of one read issued in the same tick with the same `key` (the arguments they share), answered
 * by one run over all their items: one query's fixed cost (parsing, planning, a pass over the parts)
 * instead of one per call, which the DuckDB colony does not pay. The summary asks for its window and
 * the one before at once (the items are windows); a metrics tool asks RED for every protocol from
 * spans and from histograms (batch.ts). Each caller gets its own item's answer; a failed run fails
 * the callers it was run for.
 */
export class TickBatcher<I, A> {
  private readonly pending = new Map<string, { items: I[]; answer: Promise<A[]> }>();

  /** `run` answers each of `items`, in order. */
  constructor(private readonly run: (items: readonly I[], key: string) => Promise<A[]>) {}

  ask(item: I, key = ''): Promise<A> {
    let batch = this.pending.get(key);
    if (!batch) {
      const items: I[] = [];
      // Runs after the calls of this tick have joined.
      const answer = Promise.resolve().then(() => {
        this.pending.delete(key);
        return this.run(items, key);
      });
      batch = { items, answer };
      this.pending.set(key, batch);
    }
    const i = batch.items.push(item) - 1;
    return batch.answer.then((all) => all[i]);
  }
}
