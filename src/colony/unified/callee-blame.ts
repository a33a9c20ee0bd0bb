import type { TopologyEdge } from '../store/queries/topology.js';
import { isoToNs, nsToIso } from '../../core/time.js';
import { type ChangeEvent, triggeringEvent } from './onset.js';
import type { ServiceChange } from './summary.js';

/**
 * Blame for a caller's new failures whose callee looks fine from its own telemetry (pure). A callee
 * whose spans show no server errors and no slowdown can still be the cause: it rejects the calls
 * (4xx, gRPC INVALID_ARGUMENT after a bad config push: client errors, not its failures), it stopped
 * answering, or it sends no telemetry at all (the calls fail UNAVAILABLE and nothing else is seen).
 * The callee is blamed when something ties the failures to it rather than to the caller: it changed
 * (a deploy or config change at the callers' onset), several callers fail against it alike, or it is
 * silent. Otherwise the caller keeps the blame and says where its failures land.
 */
export interface CalleeBlame {
  callee: string;
  /** The callee has no entry of its own: it sends no telemetry (or none this colony has seen). */
  silent: boolean;
  callerText: string;
  calleeText: string;
  /** The callee's change that preceded the callers' onset, as the summary words a trigger. */
  trigger: string | null;
}

/** A peer that answers calls (HTTP, gRPC): a database or a cache is the caller's own dependency. */
const CALLED = new Set<TopologyEdge['protocol']>(['http', 'grpc']);

/** This window's requests over the previous window's: what earlier counts are scaled by (1 when unknown). */
export const scaleOf = (c: ServiceChange | undefined): number => (c?.prevRequests ? c.requests / c.prevRequests : 1);

export interface FailingCaller {
  service: string;
  /** Failed calls added since the previous window, scaled for the caller's traffic. */
  added: number;
}

/** The callers whose calls to `callee` fail anew (more than twice as often as before), most added failures first. */
export function failingCallers(callee: string, edgesNow: readonly TopologyEdge[], edgesPrev: readonly TopologyEdge[], byName: ReadonlyMap<string, ServiceChange>): FailingCaller[] {
  const out: FailingCaller[] = [];
  for (const e of edgesNow) {
    if (e.to !== callee || e.errors === 0) continue;
    const before = (edgesPrev.find((p) => p.from === e.from && p.to === callee)?.errors ?? 0) * scaleOf(byName.get(e.from));
    if (e.errors > 2 * before) out.push({ service: e.from, added: Math.round(e.errors - before) });
  }
  return out.sort((a, b) => b.added - a.added || a.service.localeCompare(b.service));
}

const callersText = (callers: readonly FailingCaller[]) => callers.map((c) => `${c.service} (+${c.added})`).join(', ');

function isSilent(c: ServiceChange | undefined): boolean {
  return c !== undefined && (c.requests === 0 || c.signals.some((s) => s.startsWith('no telemetry')));
}

export interface BlameInput {
  caller: ServiceChange;
  /** The edge whose failing calls grew most, and by how many (already scaled for traffic). */
  edge: TopologyEdge;
  grew: number;
  byName: ReadonlyMap<string, ServiceChange>;
  edgesNow: readonly TopologyEdge[];
  edgesPrev: readonly TopologyEdge[];
  events: readonly ChangeEvent[];
}

/** Why `caller`'s failures are its callee's although the callee neither fails nor slows; null when nothing ties them to it. */
export function blameQuietCallee(i: BlameInput): CalleeBlame | null {
  const { caller, edge } = i;
  const known = i.byName.get(edge.to);
  if (known ? known.failing || known.slower : !(edge.kind === 'external' && CALLED.has(edge.protocol))) return null;
  const grew = Math.round(i.grew);
  const onsetNs = caller.onset ? isoToNs(caller.onset) : null;
  const ev = onsetNs !== null ? triggeringEvent(i.events, edge.to, onsetNs) : null;
  const trigger = ev ? `${ev.kind} at ${nsToIso(ev.timeNs)}: ${ev.title}` : null;
  const callers = failingCallers(edge.to, i.edgesNow, i.edgesPrev, i.byName);
  const silent = !known || isSilent(known);
  if (silent) {
    const what = known ? 'sends no telemetry now' : 'sends no telemetry';
    return {
      callee: edge.to, silent: !known, trigger,
      callerText: `its new failures are calls to ${edge.to} that fail (+${grew}); ${edge.to} ${what}`,
      calleeText: `${what}; calls to it fail anew from ${callersText(callers)}: it is down, unreachable or not instrumented`,
    };
  }
  if (!ev && callers.length < 2) {
    caller.signals.push(`its new failures are calls to ${edge.to} that fail (+${grew}) while ${edge.to} shows no server errors: requests ${edge.to} rejects (client errors)`);
    return null;
  }
  const why = ev ? `, after its ${ev.kind === 'deploy' ? 'deploy' : 'configuration change'}` : ': its callers all fail against it';
  return {
    callee: edge.to, silent: false, trigger,
    callerText: `its new failures are calls to ${edge.to} that fail (+${grew}) while ${edge.to} shows no server errors: ${edge.to} rejects them`,
    calleeText: `rejects its callers' calls, client errors rather than server errors (failed calls from ${callersText(callers)})${why}`,
  };
}

/** An entry for a callee the colony has no telemetry from, so it can be ranked and named. */
export function silentEntry(service: string, protocol: TopologyEdge['protocol']): ServiceChange {
  return {
    service, sources: [], status: 'silent', ratePerSec: 0, prevRatePerSec: null, requests: 0, errors: 0, prevRequests: null, prevErrors: null,
    errorRate: 0, prevErrorRate: null, p95Ms: null, prevP95Ms: null, basis: `no telemetry of its own (a ${protocol} peer its callers name)`,
    signals: [], score: 0, chronic: false, failing: false, slower: false, onset: null, trigger: null, explainedBy: null,
  };
}

/**
 * A callee that went silent and whose calls from a newly failing caller all but stopped: the caller's
 * own instrumentation (often eBPF) records no span for a call that never connected, so neither the
 * failed calls nor the callee show; the calls that vanished do.
 */
export function blameVanishedCallee(caller: ServiceChange, byName: ReadonlyMap<string, ServiceChange>, edgesNow: readonly TopologyEdge[], edgesPrev: readonly TopologyEdge[]): CalleeBlame | null {
  const scale = scaleOf(caller);
  let best: { callee: string; before: number; now: number } | null = null;
  for (const p of edgesPrev) {
    if (p.from !== caller.service || p.calls < 20 || !CALLED.has(p.protocol) || !isSilent(byName.get(p.to))) continue;
    const now = edgesNow.find((e) => e.from === caller.service && e.to === p.to)?.calls ?? 0;
    if (now >= 0.5 * p.calls * scale) continue;
    if (!best || p.calls * scale - now > best.before * scale - best.now) best = { callee: p.to, before: p.calls, now };
  }
  if (!best) return null;
  return {
    callee: best.callee, silent: false, trigger: null,
    callerText: `its calls to ${best.callee} all but stopped (${best.before} -> ${best.now}) as it began failing; ${best.callee} sends no telemetry now`,
    calleeText: `sends no telemetry now; ${caller.service}'s calls to it all but stopped (${best.before} -> ${best.now}) as ${caller.service} began failing: it is down or unreachable`,
  };
}
