import { formatMs } from '../../core/format.js';
import type { TopologyEdge } from '../store/queries/topology.js';
import { isoToNs } from '../../core/time.js';
import { blameQuietCallee, blameVanishedCallee, scaleOf, silentEntry } from './callee-blame.js';
import type { ChangeEvent } from './onset.js';
import { type OriginCount, elsewhereOrigin } from './error-origin.js';
import { type ServiceTime, bestTimes } from './self-time.js';
import { mean } from './stats.js';
import type { ServiceChange } from './summary.js';

/**
 * Blame travels upstream (pure). A caller whose new failures are failing calls to a callee that also
 * fails anew, or calls it gave up waiting on (timeouts to a slower callee), or whose added latency is
 * mostly time spent waiting on a slower callee, is explained by that callee: the callee ranks above it
 * (with at least the caller's score) and both say why. A chronic callee explains nothing new.
 */
export interface AttributionInput {
  timesNow: readonly ServiceTime[];
  timesPrev: readonly ServiceTime[];
  edgesNow: readonly TopologyEdge[];
  edgesPrev: readonly TopologyEdge[];
  /** Change events over both windows: a callee's change at its callers' onset ties their failures to it. */
  events?: readonly ChangeEvent[];
  /** Where each service's failing sampled traces began (error-origin.ts). */
  origins?: ReadonlyMap<string, OriginCount>;
}

/** A callee explains a caller's change when it accounts for at least this share of it. */
export const EXPLAINED_SHARE = 0.5;

interface Explanation {
  callee: string;
  callerText: string;
  calleeText: string;
  /** The callee has no entry of its own (it sends no telemetry): one is made for it. */
  silent?: boolean;
  trigger?: string | null;
}

/** A callee whose failures began no later than the caller's (a minute's grace) may explain them though few calls still reach it (a circuit breaker). */
const CASCADE_GRACE_NS = 60_000_000_000n;

function startedFirst(callee: ServiceChange, caller: ServiceChange): boolean {
  return callee.onset !== null && caller.onset !== null && isoToNs(callee.onset) <= isoToNs(caller.onset) + CASCADE_GRACE_NS;
}

/**
 * The failures explained by the calls that failed (edges), else by where the caller's failing traces
 * began: the deepest failing span, in another service or at a peer that never answered.
 */
function explainErrors(c: ServiceChange, byName: Map<string, ServiceChange>, input: AttributionInput, tNow: Map<string, ServiceTime>): Explanation | null {
  return explainByEdges(c, byName, input, tNow) ?? explainByOrigin(c, byName, input.origins) ?? blameVanishedCallee(c, byName, input.edgesNow, input.edgesPrev);
}

function explainByOrigin(c: ServiceChange, byName: Map<string, ServiceChange>, origins: ReadonlyMap<string, OriginCount> | undefined): Explanation | null {
  const o = origins ? elsewhereOrigin(c.service, origins) : null;
  if (!o) return null;
  const callee = byName.get(o.origin);
  if (callee?.chronic && !callee.failing) return null;
  const share = `${o.traces} of ${o.of} of its sampled failing traces`;
  return {
    callee: o.origin,
    silent: !callee,
    callerText: `${share} began at ${o.origin} (the deepest failing span there)`,
    calleeText: callee ? `errors start here: ${share.replace('its', `${c.service}'s`)} began here` : `sends no telemetry; errors start at calls to it: ${share.replace('its', `${c.service}'s`)} began there`,
  };
}

function explainByEdges(c: ServiceChange, byName: Map<string, ServiceChange>, input: AttributionInput, tNow: Map<string, ServiceTime>): Explanation | null {
  // New failed requests of the caller, scaled for a change in traffic.
  const scale = scaleOf(c);
  const added = c.errors - (c.prevErrors ?? 0) * scale;
  if (added <= 0) return null;
  const prevEdges = new Map(input.edgesPrev.filter((e) => e.from === c.service).map((e) => [e.to, e]));
  const growth = (e: TopologyEdge) => e.errors - (prevEdges.get(e.to)?.errors ?? 0) * scale;
  let best: { edge: TopologyEdge; grew: number } | null = null;
  let peer: { edge: TopologyEdge; grew: number } | null = null;
  for (const e of input.edgesNow) {
    if (e.from !== c.service) continue;
    const grew = growth(e);
    if (e.kind === 'service' && byName.has(e.to)) {
      if (!best || grew > best.grew) best = { edge: e, grew };
    } else if (e.kind === 'external' && !byName.has(e.to) && (!peer || grew > peer.grew)) peer = { edge: e, grew };
  }
  // A peer with no telemetry of its own whose failing calls explain more than any service's.
  if (peer && peer.grew >= EXPLAINED_SHARE * added && (!best || peer.grew > best.grew)) best = peer;
  if (!best) return null;
  const callee = byName.get(best.edge.to);
  if (best.grew < EXPLAINED_SHARE * added) {
    // A circuit breaker: the callee failed first, and the caller now fails most calls without making them.
    if (callee?.failing && best.grew >= 1 && startedFirst(callee, c)) {
      return {
        callee: callee.service,
        callerText: `its failures began as its calls to ${callee.service} started failing (${callee.service} failing since ~${callee.onset?.slice(11, 16)}; +${Math.round(best.grew)} failed calls, fewer attempted: failing fast)`,
        calleeText: `began failing first; ${c.service}'s failures followed`,
      };
    }
    const chronicCallee = input.edgesNow.find((e) => e.from === c.service && e.errors > 0 && byName.get(e.to)?.chronic);
    if (chronicCallee) c.signals.push(`its calls to ${chronicCallee.to} fail about as before (chronic there): not what is new`);
    return null;
  }
  const grew = Math.round(best.grew);
  if (callee?.failing) {
    return { callee: callee.service, callerText: `its new failures are failing calls to ${callee.service} (+${grew})`, calleeText: `explains ${c.service}'s new failures` };
  }
  if (callee?.slower) {
    const abandoned = tNow.get(c.service)?.callees.get(callee.service)?.abandoned ?? 0;
    return {
      callee: callee.service,
      callerText: `its new failures are calls to ${callee.service} it gave up waiting on (+${grew}${abandoned > 0 ? `; ${abandoned} abandoned while ${callee.service} still answered, in sampled traces` : ''})`,
      calleeText: `${c.service} times out waiting on it: those failures count here`,
    };
  }
  return blameQuietCallee({ caller: c, edge: best.edge, grew: best.grew, byName, edgesNow: input.edgesNow, edgesPrev: input.edgesPrev, events: input.events ?? [] });
}

function explainLatency(c: ServiceChange, byName: Map<string, ServiceChange>, now: ServiceTime | undefined, prev: ServiceTime | undefined): Explanation | null {
  if (!now || !prev || now.duration.n < 10 || prev.duration.n < 10) return null;
  const added = mean(now.duration) - mean(prev.duration);
  if (added <= 0) return null;
  let best: { callee: string; grew: number } | null = null;
  for (const [callee, t] of now.callees) {
    const before = prev.callees.get(callee);
    const grew = t.waitedMs / now.duration.n - (before ? before.waitedMs / prev.duration.n : 0);
    if (!best || grew > best.grew) best = { callee, grew };
  }
  if (!best || best.grew < EXPLAINED_SHARE * added) return null;
  const callee = byName.get(best.callee);
  if (!callee || !(callee.slower || callee.failing)) return null;
  const pct = Math.round(Math.min(1, best.grew / added) * 100);
  return {
    callee: best.callee,
    callerText: `${pct}% of its added latency (+${formatMs(added)} per request) is spent waiting on ${best.callee}`,
    calleeText: `explains ${c.service}'s added latency (+${formatMs(best.grew)} per request)`,
  };
}

export function attribute(changes: ServiceChange[], input: AttributionInput): ServiceChange[] {
  const byName = new Map(changes.map((c) => [c.service, c]));
  const tNow = bestTimes(input.timesNow);
  const tPrev = new Map(input.timesPrev.map((t) => [`${t.service}|${t.source}`, t]));
  const why = new Map<string, Explanation>();
  for (const c of changes) {
    const t = tNow.get(c.service);
    const e = (c.failing ? explainErrors(c, byName, input, tNow) : null)
      ?? (c.slower || c.failing ? explainLatency(c, byName, t, t ? tPrev.get(`${t.service}|${t.source}`) : undefined) : null);
    if (e) why.set(c.service, e);
  }
  for (const e of why.values()) {
    if (e.silent && !byName.has(e.callee)) {
      const entry = silentEntry(e.callee, input.edgesNow.find((x) => x.to === e.callee)?.protocol ?? 'other');
      byName.set(e.callee, entry);
      changes = [...changes, entry];
    }
    const callee = byName.get(e.callee) as ServiceChange;
    if (e.trigger && !callee.trigger) callee.trigger = e.trigger;
  }
  // Break cycles (A explained by B explained by A): the first link found in the cycle is dropped.
  for (const start of [...why.keys()]) {
    const seen = new Set([start]);
    let cur = why.get(start)?.callee;
    while (cur !== undefined && why.has(cur)) {
      if (seen.has(cur)) {
        why.delete(cur);
        break;
      }
      seen.add(cur);
      cur = why.get(cur)?.callee;
    }
  }
  const rootOf = (s: string): string => {
    let cur = s;
    for (let e = why.get(cur); e; e = why.get(cur)) cur = e.callee;
    return cur;
  };
  const original = new Map(changes.map((c) => [c.service, c.score]));
  for (const [caller, e] of why) {
    const c = byName.get(caller) as ServiceChange;
    c.explainedBy = e.callee;
    c.signals.push(e.callerText);
    const callee = byName.get(e.callee) as ServiceChange;
    if (!callee.signals.includes(e.calleeText)) callee.signals.push(e.calleeText);
    // What explains another service's failures or slowness is not healthy, whatever its own spans say.
    if (callee.status === 'healthy') callee.status = 'degraded';
    const root = byName.get(rootOf(caller)) as ServiceChange;
    root.score = Math.max(root.score, (original.get(caller) ?? 0) + 1);
  }
  const depth = (s: string): number => (why.has(s) ? 1 + depth(why.get(s)?.callee as string) : 0);
  for (const caller of [...why.keys()].sort((a, b) => depth(a) - depth(b))) {
    const c = byName.get(caller) as ServiceChange;
    const callee = byName.get(why.get(caller)?.callee as string) as ServiceChange;
    c.score = Math.round(Math.min(c.score, callee.score - 1) * 10) / 10;
  }
  return [...changes].sort((a, b) => b.score - a.score || a.service.localeCompare(b.service));
}
