import { formatPercent } from '../../core/format.js';
import type { NodeCpuRow } from '../store/queries/node-cpu.js';
import type { ServiceChange } from './summary.js';

/**
 * A noisy neighbour (pure): several services slow down on one node only, and a process of another
 * service on that node takes much more CPU than before. The slow services' own figures blame them;
 * the node ties them to the neighbour, which ranks above them.
 */
export interface NeighbourInput {
  /** Per service, the nodes on which its instances stand out as slower (instance-evidence.ts slowNodes). */
  slowNodes: ReadonlyMap<string, readonly string[]>;
  /** Services whose every instance runs on one node (it slows as a whole there): their node. */
  onlyOn?: ReadonlyMap<string, string>;
  /** Services slower as a whole (the summary's reading). */
  slower?: ReadonlySet<string>;
  cpuNow: readonly NodeCpuRow[];
  cpuPrev: readonly NodeCpuRow[];
}

/** CPU at least this many times what it was, and this much more in absolute terms: a job, not noise. */
export const CPU_RISE = 1.8;
export const CPU_RISE_ABS = 0.1;

interface Hog {
  service: string;
  node: string;
  before: number;
  now: number;
  victims: string[];
}

export function findNeighbours(input: NeighbourInput): Hog[] {
  const victimsOn = new Map<string, string[]>();
  const add = (node: string, service: string) => victimsOn.set(node, [...new Set([...(victimsOn.get(node) ?? []), service])]);
  for (const [service, nodes] of input.slowNodes) for (const n of nodes) add(n, service);
  for (const [service, node] of input.onlyOn ?? []) if (input.slower?.has(service)) add(node, service);
  const hogs: Hog[] = [];
  for (const [node, slow] of victimsOn) {
    let best: Hog | null = null;
    for (const c of input.cpuNow) {
      if (c.node !== node) continue;
      const before = input.cpuPrev.find((p) => p.service === c.service && p.node === node)?.cpu;
      if (before === undefined || c.cpu < CPU_RISE * before || c.cpu - before < CPU_RISE_ABS) continue;
      const victims = slow.filter((s) => s !== c.service).sort();
      if (victims.length === 0) continue;
      if (!best || c.cpu - before > best.now - best.before) best = { service: c.service, node, before, now: c.cpu, victims };
    }
    if (best) hogs.push(best);
  }
  return hogs.sort((a, b) => b.now - b.before - (a.now - a.before) || a.node.localeCompare(b.node));
}

/** Ranks each neighbour above the services it slows, and says why on both sides. */
export function attributeNeighbours(changes: ServiceChange[], input: NeighbourInput): ServiceChange[] {
  const byName = new Map(changes.map((c) => [c.service, c]));
  const slower = new Set(changes.filter((c) => c.slower).map((c) => c.service));
  for (const h of findNeighbours({ ...input, slower })) {
    const hog = byName.get(h.service);
    if (!hog) continue;
    const victims = h.victims.map((v) => byName.get(v)).filter((v): v is ServiceChange => v !== undefined);
    hog.signals.unshift(`its CPU on node ${h.node} ${formatPercent(h.before)} -> ${formatPercent(h.now)}, and ${h.victims.join(', ')} slowed on that node only: a noisy neighbour`);
    hog.score = Math.round(Math.max(hog.score, ...victims.map((v) => v.score + 1), 10) * 10) / 10;
    // Waiting on a service it slows down itself explains nothing about the neighbour.
    if (hog.explainedBy !== null && h.victims.includes(hog.explainedBy)) hog.explainedBy = null;
    for (const v of victims) {
      const where = input.onlyOn?.get(v.service) === h.node ? `on node ${h.node}, its only node,` : `on node ${h.node} only,`;
      v.signals.push(`slower ${where} where ${h.service}'s CPU went ${formatPercent(h.before)} -> ${formatPercent(h.now)}`);
      if (v.explainedBy === null) v.explainedBy = h.service;
      v.score = Math.round(Math.min(v.score, hog.score - 1) * 10) / 10;
    }
  }
  return [...changes].sort((a, b) => b.score - a.score || a.service.localeCompare(b.service));
}
