import { TickBatcher } from './tick-batch.js';
import type { Protocol, RedQuery, RedRow } from '../queries/red.js';

export type RedBase = Omit<RedQuery, 'protocol'>;

/** RED is read from spans or from duration histograms. */
export type RedSource = 'spans' | 'histograms';

/** The protocols asked of each source (either list may be empty). */
export type RedAsked = Record<RedSource, Protocol[]>;

export type RedAnswers = Record<RedSource, Map<Protocol, RedRow[]>>;

interface RedItem {
  from: RedSource;
  protocol: Protocol;
  base: RedBase;
}

/**
 * RED questions asked in the same tick that differ only in their protocol and source (a tool asks for
 * HTTP, gRPC and SQL, from spans and from histograms, at once) are answered by one run, one query per
 * source (tick-batch.ts).
 */
export class RedBatcher {
  private readonly batcher: TickBatcher<RedItem, RedRow[]>;

  constructor(run: (q: RedBase, asked: RedAsked) => Promise<RedAnswers>) {
    this.batcher = new TickBatcher(async (items: readonly RedItem[]) => {
      const asked: RedAsked = { spans: [], histograms: [] };
      for (const { from, protocol } of items) if (!asked[from].includes(protocol)) asked[from].push(protocol);
      // One key, one base: the items differ only in source and protocol.
      const answers = await run(items[0].base, asked);
      return items.map(({ from, protocol }) => [...(answers[from].get(protocol) ?? [])]);
    });
  }

  ask(from: RedSource, q: RedQuery): Promise<RedRow[]> {
    const { protocol, ...base } = q;
    return this.batcher.ask({ from, protocol, base }, JSON.stringify(base, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  }
}
