import type { Socket } from 'node:net';
import { isLoopbackHost } from '../core/net.js';
import { loopbackPeer } from './loopback-peer.js';

/**
 * The MCP sessions a colony keeps, and who may make a new one. A client is its remote address, or on
 * this machine the program at the other end (loopback-peer.ts): every loopback connection has the
 * same address, so without that one program holding every session locked all others out. Each
 * client has its own quota; only local connections /proc cannot place share one. A session with a
 * request in flight (an open event stream included) or used within `busyMs` is never evicted. A new
 * session beyond a client's quota or the colony's cap replaces that client's least recently used
 * idle session, never another client's; with none idle, it is refused, saying who holds the sessions.
 */
export interface SessionLimits {
  /** Sessions kept at most. */
  maxSessions: number;
  /** Sessions one client may hold (local connections that cannot be placed share maxSessions). */
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

/** Local connections whose program /proc does not name (not Linux, or gone): one client for all. */
export const UNKNOWN_LOCAL = 'loopback';

const LOCAL_PROCESS = 'local process ';

/** The client key of a local process. */
export function localProcess(pid: number): string {
  return `${LOCAL_PROCESS}${pid}`;
}

/** The processes among client keys, most sessions first: where a new local connection is looked for first. */
function pidsOf(clients: readonly string[]): number[] {
  return clients.filter((c) => c.startsWith(LOCAL_PROCESS)).map((c) => Number(c.slice(LOCAL_PROCESS.length)));
}

type ConnectionEnds = Pick<Socket, 'remoteAddress' | 'remotePort' | 'localAddress' | 'localPort'>;

const known = new WeakMap<ConnectionEnds, Promise<string>>();

/**
 * Who a connection comes from, for quotas: its address; on loopback, "local process PID", else
 * "local user UID" (another user's program), else UNKNOWN_LOCAL. Found once per connection (a kept-alive
 * one may start many sessions). `likely` are client keys to look at first.
 */
export function clientOf(socket: ConnectionEnds, likely: readonly string[] = []): Promise<string> {
  const cached = known.get(socket);
  if (cached) return cached;
  const found = placeClient(socket, likely);
  known.set(socket, found);
  return found;
}

async function placeClient(socket: ConnectionEnds, likely: readonly string[]): Promise<string> {
  const a = socket.remoteAddress ?? '';
  if (a !== '' && !isLoopbackHost(a)) return a.replace(/^::ffff:/, '');
  if (a === '' || socket.remotePort === undefined || socket.localAddress === undefined || socket.localPort === undefined) return UNKNOWN_LOCAL;
  const peer = await loopbackPeer({ address: a, port: socket.remotePort }, { address: socket.localAddress, port: socket.localPort }, pidsOf(likely)).catch(() => null);
  if (!peer) return UNKNOWN_LOCAL;
  return peer.pid !== undefined ? localProcess(peer.pid) : `local user ${peer.uid}`;
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

  /** Clients holding sessions, most first. */
  clients(): string[] {
    return [...this.counts()].sort((a, b) => b[1] - a[1]).map(([c]) => c);
  }

  private counts(): Map<string, number> {
    const n = new Map<string, number>();
    for (const e of this.entries.values()) n.set(e.client, (n.get(e.client) ?? 0) + 1);
    return n;
  }

  /** "local process 7: 12, 10.0.0.5: 3, 2 others: 4": who holds the sessions, for a refusal. */
  private holders(): string {
    const ranked = [...this.counts()].sort((a, b) => b[1] - a[1]);
    const shown = ranked.slice(0, 3).map(([c, k]) => `${c === UNKNOWN_LOCAL ? 'local programs' : c}: ${k}`);
    const rest = ranked.slice(3);
    if (rest.length > 0) shown.push(`${rest.length} other clients: ${rest.reduce((t, [, k]) => t + k, 0)}`);
    return shown.join(', ');
  }

  private quota(client: string): number {
    return client === UNKNOWN_LOCAL ? this.limits.maxSessions : Math.min(this.limits.maxPerClient, this.limits.maxSessions);
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
      const limits = `the limit is ${Math.min(this.limits.maxPerClient, this.limits.maxSessions)} per client, ${this.limits.maxSessions} in all`;
      const message =
        client !== UNKNOWN_LOCAL && ownCount + 1 > this.quota(client)
          ? `Too many sessions: this client (${client}) already has ${ownCount} MCP sessions in use (${limits}); end one (DELETE /mcp) or retry later.`
          : `Too many sessions: the colony already has ${this.entries.size + pendingAll} MCP sessions in use (${limits}; held by ${this.holders() || 'sessions still starting'}); end one (DELETE /mcp) or retry later.`;
      return { ok: false, message };
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
