import { isLoopbackHost } from '../core/net.js';

/**
 * The MCP sessions a colony keeps, and who may make a new one. A client is its remote address; every
 * loopback client is one client, since on one machine an address (or a port, or the one colony
 * token) tells no process from another. So the rule that protects work on loopback is about use, not
 * owners: a session with a request in flight (an open event stream included) or used within
 * `busyMs` is never evicted. A new session beyond a client's quota or the colony's cap replaces that
 * client's least recently used idle session, never another client's; with none idle, it is refused.
 */
export interface SessionLimits {
  /** Sessions kept at most. */
  maxSessions: number;
  /** Sessions one remote client may hold (loopback clients share maxSessions). */
  maxPerClient: number;
  /** A session used this recently counts as in use. */
  busyMs: number;
}

interface Entry<S> {
  value: S;
  client: string;
  lastUsed: number;
  inFlight: number;
}

export type Admission<S> = { ok: true; evicted: S[] } | { ok: false; message: string };

/** Who a request comes from, for quotas: its address, or "loopback" for every local process. */
export function clientOf(remoteAddress: string | undefined): string {
  const a = remoteAddress ?? '';
  return a === '' || isLoopbackHost(a) ? 'loopback' : a.replace(/^::ffff:/, '');
}

export class SessionTable<S> {
  private readonly entries = new Map<string, Entry<S>>();
  /** Sessions admitted whose initialize has not finished: counted, so concurrent ones cannot overshoot. */
  private readonly pending = new Map<string, number>();

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): S | undefined {
    return this.entries.get(id)?.value;
  }

  values(): S[] {
    return [...this.entries.values()].map((e) => e.value);
  }

  private quota(client: string): number {
    return client === 'loopback' ? this.limits.maxSessions : Math.min(this.limits.maxPerClient, this.limits.maxSessions);
  }

  private idle(e: Entry<S>, now: number): boolean {
    return e.inFlight === 0 && now - e.lastUsed >= this.limits.busyMs;
  }

  /**
   * Whether `client` may start a session now, and which of its own idle sessions were removed to make room (the caller closes them). An
   * admitted client holds a reservation until `add` or `release`.
   */
  admit(client: string, now: number): Admission<S> {
    const pendingAll = [...this.pending.values()].reduce((a, b) => a + b, 0);
    const own = [...this.entries].filter(([, e]) => e.client === client);
    const ownCount = own.length + (this.pending.get(client) ?? 0);
    const needed = Math.max(ownCount + 1 - this.quota(client), this.entries.size + pendingAll + 1 - this.limits.maxSessions, 0);
    // Least recently used first.
    const idle = own.filter(([, e]) => this.idle(e, now)).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    if (idle.length < needed) {
      const scope = client !== 'loopback' && ownCount + 1 > this.quota(client) ? `this client already has ${ownCount} MCP sessions` : `the colony already has ${this.entries.size + pendingAll} MCP sessions`;
      return { ok: false, message: `Too many sessions: ${scope} in use (the limit is ${this.quota(client)} per client, ${this.limits.maxSessions} in all); end one (DELETE /mcp) or retry later.` };
    }
    const evicted = idle.slice(0, needed).map(([id, e]) => {
      this.entries.delete(id);
      return e.value;
    });
    this.pending.set(client, (this.pending.get(client) ?? 0) + 1);
    return { ok: true, evicted };
  }

  /** Gives back a reservation from `admit` (the initialize failed or made no session). */
  release(client: string): void {
    const n = (this.pending.get(client) ?? 0) - 1;
    if (n > 0) this.pending.set(client, n);
    else this.pending.delete(client);
  }

  /** Turns the reservation into a session. */
  add(id: string, client: string, value: S, now: number): void {
    this.release(client);
    this.entries.set(id, { value, client, lastUsed: now, inFlight: 0 });
  }

  delete(id: string): S | undefined {
    const e = this.entries.get(id);
    this.entries.delete(id);
    return e?.value;
  }

  /** A request on the session starts; the returned function ends it (the session is then as used now). */
  begin(id: string, now: () => number): () => void {
    const e = this.entries.get(id);
    if (!e) return () => undefined;
    e.inFlight++;
    e.lastUsed = now();
    return () => {
      e.inFlight--;
      e.lastUsed = now();
    };
  }

  /** Every session, removed and returned, to be closed. */
  clear(): S[] {
    const out = this.values();
    this.entries.clear();
    return out;
  }

  /** Sessions idle (nothing in flight) since before `cutoff`: removed and returned, to be closed. */
  expire(cutoff: number): S[] {
    const out: S[] = [];
    for (const [id, e] of this.entries) {
      if (e.inFlight === 0 && e.lastUsed < cutoff) {
        this.entries.delete(id);
        out.push(e.value);
      }
    }
    return out;
  }
}
