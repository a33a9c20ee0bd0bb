import type { IngestBatch, Source } from './rows.js';

/** A service seen in a batch: the registry's row for it (coral_services), merged across batches. */
export interface Sighting {
  service: string;
  source: Source;
  first: bigint;
  last: bigint;
  resource: string;
}

/** One registry row per service and source. */
export const sightingKey = (service: string, source: Source) => `${service}\u0000${source}`;

export function mergeSighting(into: Sighting, s: Sighting): void {
  if (s.first < into.first) into.first = s.first;
  if (s.last > into.last) into.last = s.last;
  into.resource = s.resource;
}

export function serviceSightings(b: IngestBatch): Sighting[] {
  const map = new Map<string, Sighting>();
  // Rows of one service come together: the last sighting is checked before any lookup.
  let last: Sighting | null = null;
  const see = (service: string, source: Source, first: bigint, end: bigint, resource: string) => {
    let s = last !== null && last.service === service && last.source === source ? last : null;
    if (s === null) {
      const key = sightingKey(service, source);
      s = map.get(key) ?? null;
      if (s === null) {
        last = { service, source, first, last: end, resource };
        map.set(key, last);
        return;
      }
      last = s;
    }
    if (first < s.first) s.first = first;
    if (end > s.last) s.last = end;
    s.resource = resource;
  };
  for (const r of b.spans) see(r.serviceName, r.source, r.startNs, r.endNs, r.resourceAttributes);
  for (const r of b.numberPoints) see(r.serviceName, r.source, r.timeNs, r.timeNs, r.resourceAttributes);
  for (const r of b.histogramPoints) see(r.serviceName, r.source, r.timeNs, r.timeNs, r.resourceAttributes);
  // An event sent by a deploy tool (no telemetry SDK on its resource) says nothing about how the
  // service is instrumented: it must not give a Beyla-only service an SDK source.
  const toolEvents = new Set(b.events.map((e) => e.eventId));
  for (const r of b.logs) {
    if (toolEvents.has(r.logId) && !r.resourceAttributes.includes('"telemetry.sdk.name"')) continue;
    see(r.serviceName, r.source, r.timeNs, r.timeNs, r.resourceAttributes);
  }
  return [...map.values()];
}
