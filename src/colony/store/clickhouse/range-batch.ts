import type { TimeRange } from '../../../core/time.js';

/**
 * Calls of one read issued in the same tick for different windows (coral_query_summary asks for its
 * window and the one before at once), with the same other arguments (`key`), answered by one run
 * over all their windows: one pass over the table instead of one per window, and one query's fixed
 * cost. Each caller gets its own window's answer; a failed run fails the callers it was run for.
 */
export class RangeBatcher<T> {
  private readonly pending = new Map<string, { ranges: TimeRange[]; answer: Promise<T[]> }>();

  /** `run` answers each of `ranges`, in order. */
  constructor(private readonly run: (ranges: readonly TimeRange[], key: string) => Promise<T[]>) {}

  ask(range: TimeRange, key = ''): Promise<T> {
    let batch = this.pending.get(key);
    if (!batch) {
      const ranges: TimeRange[] = [];
      // Runs after the calls of this tick have joined.
      const answer = Promise.resolve().then(() => {
        this.pending.delete(key);
        return this.run(ranges, key);
      });
      batch = { ranges, answer };
      this.pending.set(key, batch);
    }
    const i = batch.ranges.push(range) - 1;
    return batch.answer.then((all) => all[i]);
  }
}
