import { formatBytes, formatCount, formatPercent } from '../../core/format.js';
import type { Understanding } from '../understand/index.js';
import type { ServiceState } from '../understand/verdict.js';
import { type Cited, cite, topologyEdges } from './question-facts.js';

/**
 * The question triage's answers about saturation and infrastructure (pure): CPU, memory, restarts,
 * consumer lag and queues from the summary's signals and the gauges read; kafka, postgres or redis
 * named in a question, found as the peers services call, or said to be absent from this colony.
 */
const SATURATION_SIGNAL = /memory|heap|cpu|consumer lag|messages wait|restart|oom|pool|connections|queue|node /i;

export function saturationHeadline(u: Understanding, states: readonly ServiceState[], summary: Cited | undefined, topo: Cited | undefined): string[] {
  const named = u.services.map((s) => s.name);
  const pool = named.length > 0 ? states.filter((s) => named.includes(s.service)) : states;
  // Infrastructure named alone ("is postgres saturated?"): only the signals of its kind, never another service's memory.
  const kinds = new Set(u.infra.map((i) => i.kind));
  const fits = named.length > 0 || kinds.size === 0 ? SATURATION_SIGNAL : kinds.has('messaging') ? /consumer lag|messages wait|backlog|queue/i : /pool|connections|sql|database|cache/i;
  const signals = pool.flatMap((s) => s.signals.filter((x) => fits.test(x)).map((x) => `${s.service}: ${x}`));
  const lines: string[] = [];
  const infra = infraLines(u, topo, states);
  // "is memory of ad ok?" leans the other way: saturation signals make the answer no.
  const [found, none] = u.polarity === 'good' ? ['No', 'Yes'] : ['Yes', 'No'];
  const head = signals.length > 0
    ? `${found}: ${signals.slice(0, 3).join('; ')}${cite(summary)}.`
    : `${none}: no CPU, memory, restart, consumer-lag or queue signal changed beyond noise${named.length > 0 ? ` for ${named.join(', ')}` : ''}${cite(summary)}${/connection|pool/.test(u.question.toLowerCase()) ? '; this colony has no connection-pool metrics, so pools could not be checked directly' : ''}.`;
  lines.push(head, ...infra);
  return lines;
}

interface GaugeSummary { metricName: string; unit: string; serviceName: string; last: number | null; min: number | null; max: number | null; avg: number | null }

/** A gauge's reading in its unit: utilization as a percent, bytes in MB/GB. */
function gaugeValue(g: GaugeSummary, v: number | null): string {
  if (v === null) return 'n/a';
  if (g.unit === '1' || /utilization|ratio/.test(g.metricName)) return formatPercent(v);
  if (/^(By|bytes?)$/i.test(g.unit) || /memory|heap/.test(g.metricName)) return formatBytes(v);
  return `${formatCount(Math.round(v))}${g.unit && g.unit !== '1' ? ` ${g.unit}` : ''}`;
}

export function gaugeLines(results: readonly Cited[]): string[] {
  return results.filter((r) => r.name === 'coral_query_telemetry_metrics').flatMap((r) => {
    const ms = ((r.structured?.metrics ?? []) as GaugeSummary[]).filter((g) => g.last !== null);
    if (ms.length === 0) return [`${r.args.service}: no ${r.args.metric} metric in this window${cite(r)}.`];
    return ms.slice(0, 4).map((g) => `${g.serviceName} ${g.metricName}: now ${gaugeValue(g, g.last)} (average ${gaugeValue(g, g.avg)}, max ${gaugeValue(g, g.max)})${cite(r)}.`);
  });
}

/** Infrastructure words that name a kind of thing ("the queue"), not one product. */
const GENERIC_INFRA = new Set(['queue', 'queues', 'topic', 'broker', 'messaging', 'pipeline', 'consumer', 'consumers', 'database', 'databases', 'db', 'sql', 'cache']);
/** Products known by another name in telemetry: valkey speaks redis, postgres is postgresql. */
const SAME_AS: Record<string, string[]> = { redis: ['redis', 'valkey'], valkey: ['valkey', 'redis'], postgres: ['postgres'], postgresql: ['postgres'], mongo: ['mongo'], rabbit: ['rabbitmq'] };

/** A product the question names (kafka, mysql) that no service is and no call reaches in this colony. */
export function missingInfra(u: Understanding, topo: Cited | undefined, services: readonly string[]): string | undefined {
  if (!topo) return undefined;
  const edges = topologyEdges(topo);
  const seen = [...new Set([...edges.map((e) => e.to.toLowerCase()), ...services.map((s) => s.toLowerCase())])];
  return u.infra.map((i) => i.word).find((w) => !GENERIC_INFRA.has(w) && !(SAME_AS[w] ?? [w]).some((x) => seen.some((p) => p.startsWith(x))));
}

export function missingInfraLine(word: string, u: Understanding, topo: Cited | undefined, services: readonly string[]): string {
  const kind = u.infra.find((i) => i.word === word)?.kind ?? 'database';
  const edges = topologyEdges(topo);
  const protocol = kind === 'messaging' ? 'messaging' : 'sql';
  const peers = edges.filter((e) => e.kind === 'external' && e.protocol === protocol);
  const byPeer = [...new Set(peers.map((p) => p.to))].map((to) => `${to} (called by ${peers.filter((p) => p.to === to).map((p) => p.from).join(', ')})`);
  return `There is no ${word} in this colony: no service by that name and no call to it${cite(topo)}; ${byPeer.length > 0 ? `the ${kind === 'messaging' ? 'messaging' : 'database and cache'} peers seen are ${byPeer.join(', ')}` : `no ${kind} calls were seen at all`}. The services are: ${services.join(', ')}.`;
}

/** What the colony knows of infrastructure named in the question (kafka, postgres, redis): who calls it. */
function infraLines(u: Understanding, topo: Cited | undefined, states: readonly ServiceState[]): string[] {
  if (u.infra.length === 0) return [];
  const edges = topologyEdges(topo);
  const out: string[] = [];
  for (const kind of [...new Set(u.infra.map((i) => i.kind))]) {
    const word = u.infra.find((i) => i.kind === kind)?.word ?? kind;
    const protocol = kind === 'messaging' ? 'messaging' : 'sql';
    const peers = edges.filter((e) => e.protocol === protocol && e.kind === 'external' && (kind !== 'cache' || /redis|valkey|memcache|cache/i.test(e.to)) && (kind !== 'database' || !/redis|valkey|memcache|cache/i.test(e.to)));
    // Consumers: services with lag readings, else those no service calls and that call none over HTTP or gRPC (fed by messages).
    const lagging = states.filter((s) => s.signals.some((x) => /consumer lag|messages wait/.test(x))).map((s) => s.service);
    const fed = states.filter((s) => s.requests > 0 && !edges.some((e) => e.to === s.service || (e.from === s.service && (e.protocol === 'http' || e.protocol === 'grpc')))).map((s) => s.service);
    const consumers = kind === 'messaging' ? (lagging.length > 0 ? lagging : fed) : [];
    if (peers.length === 0 && consumers.length === 0) {
      out.push(`There is no ${word} in this colony: no service sends its telemetry and no call to it was seen${cite(topo)}.`);
      continue;
    }
    const names = [...new Set(peers.map((p) => p.to))];
    const callers = peers.map((p) => `${p.from} -> ${p.to} (${formatCount(p.calls)} calls${p.errors ? `, ${formatCount(p.errors)} failed` : ''})`);
    out.push(`No ${word} service sends telemetry in this colony; the ${kind} services are the ones calling it${callers.length > 0 ? `: ${callers.join(', ')}${cite(topo)}` : ''}${consumers.length > 0 ? `; ${lagging.length > 0 ? 'consumers with lag readings' : 'its likely consumers (called by no service, fed by messages)'}: ${consumers.join(', ')}` : ''}.`);
  }
  return out;
}
