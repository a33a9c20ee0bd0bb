import type { Protocol, RedQuery, RedRow } from '../queries/red.js';

export type RedBase = Omit<RedQuery, 'protocol'>;

/**
 * RED questions asked in the same tick that differ only in their protocol (a tool asks for HTTP, gRPC
 * and SQL at once) are answered by one query: every ClickHouse query has a fixed cost (parsing,
 * planning, a pass over the parts) that the DuckDB colony does not pay.
 */
export class ProtocolBatcher {
  private readonly pending = new Map<string, { protocols: Protocol[]; answer: Promise<Map<Protocol, RedRow[]>> }>();

  constructor(private readonly run: (q: RedBase, protocols: readonly Protocol[]) => Promise<Map<Protocol, RedRow[]>>) {}

  ask(q: RedQuery): Promise<RedRow[]> {
    const { protocol, ...base } = q;
    const key = JSON.stringify(base, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    let batch = this.pending.get(key);
    if (!batch) {
      const protocols: Protocol[] = [];
      // Runs after the calls of this tick have joined.
      const answer = Promise.resolve().then(() => {
        this.pending.delete(key);
        return this.run(base, protocols);
      });
      batch = { protocols, answer };
      this.pending.set(key, batch);
    }
    if (!batch.protocols.includes(protocol)) batch.protocols.push(protocol);
    return batch.answer.then((byProtocol) => [...(byProtocol.get(protocol) ?? [])]);
  }
}
