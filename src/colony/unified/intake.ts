import { nsToIso } from '../../core/time.js';
import { HEALTH_RULES, type ServiceInfo } from '../store/queries/services.js';

/**
 * Whether the colony is receiving anything at all (pure). When every service is silent, the silence
 * is not any one service's doing: the intake (collector, exporter, network, the colony's receiver) or
 * the whole system stopped, and naming the alphabetically first service as the cause would mislead.
 */
export interface IntakeSilence {
  /** The last time anything was received; null when nothing ever was. */
  lastSeenNs: bigint | null;
  text: string;
}

/** Services that stopped within this of the last one went silent at once. */
const AT_ONCE_NS = HEALTH_RULES.degradedSilentNs;
const MIN_NS = 60_000_000_000n;
const hhmm = (ns: bigint) => `${nsToIso(ns).slice(11, 16)} UTC`;

export function intakeSilence(services: readonly Pick<ServiceInfo, 'serviceName' | 'lastSeenNs'>[], windowEndNs: bigint): IntakeSilence | null {
  if (services.length === 0) return { lastSeenNs: null, text: 'No telemetry has been received yet: no service has sent anything to this colony.' };
  const last = services.reduce((m, s) => (s.lastSeenNs > m ? s.lastSeenNs : m), services[0].lastSeenNs);
  if (windowEndNs - last <= HEALTH_RULES.degradedSilentNs) return null;
  const ago = `${(windowEndNs - last) / MIN_NS} min before ${hhmm(windowEndNs)}`;
  const stopped = services.filter((s) => last - s.lastSeenNs <= AT_ONCE_NS).length;
  if (services.length === 1) {
    return { lastSeenNs: last, text: `Nothing received since ${hhmm(last)} (${ago}): the only service went silent, or the colony's intake (collector, exporter, network) stopped.` };
  }
  const how = stopped === services.length ? `all ${services.length} services went silent at once` : `every service is silent (${stopped} of ${services.length} stopped together)`;
  return {
    lastSeenNs: last,
    text: `Nothing received since ${hhmm(last)} (${ago}): ${how}. That is the colony's intake (collector, exporter, network) or the whole system, not one service.`,
  };
}
