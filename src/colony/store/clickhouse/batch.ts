import type { Protocol, RedQuery, RedRow } from '../queries/red.js';

export type RedBase = Omit<RedQuery, 'protocol'>;

/** RED is read from spans or from duration histograms. */
export type RedSource = 'spans' | 'histograms';

/** The protocols asked of each source (either list may be empty). */
export type RedAsked = Record<RedSource, Protocol[]>;

export type RedAnswers = Record<RedSource, Map<Protocol, RedRow[]>>;

/**
 * RED questions asked in the same tick that differ only in their protocol and source (a tool asks for
 * HTTP, gRPC and SQL, from spans and from histograms, at once) are answered by one run, one query per
 * source: every ClickHouse query has a fixed cost (parsing, planning, a pass over the parts) that the
 * DuckDB colony does not pay, and embedded ClickHouse has few connections (client.ts), each running one query at a time.
 */
export class RedBatcher {
  private readonly pending = new Map<string, { asked: RedAsked; answer: Promise<RedAnswers> }>();

  constructor(private readonly run: (q: RedBase, asked: RedAsked) => Promise<RedAnswers>) {}

  ask(from: RedSource, q: RedQuery): Promise<RedRow[]> {
    const { protocol, ...base } = q;
    const key = JSON.stringify(base, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    let batch = this.pending.get(key);
    if (!batch) {
      const asked: RedAsked = { spans: [], histograms: [] };
      // Runs after the calls of this tick have joined.
      const answer = Promise.resolve().then(() => {
        this.pending.delete(key);
        return this.run(base, asked);
      });
      batch = { asked, answer };
      this.pending.set(key, batch);
    }
    if (!batch.asked[from].includes(protocol)) batch.asked[from].push(protocol);
    return batch.answer.then((a) => [...(a[from].get(protocol) ?? [])]);
  }
}
