import { nsToIso } from '../core/time.js';
import type { ColonyReader, StoreCounts } from './store/colony.js';

export interface ColonyStatusService {
  serviceName: string;
  sources: string[];
  firstSeen: string;
  lastSeen: string;
}

/** What a colony holds, as `coral colony status --json` and the colony/status MCP resource give it. */
export interface ColonyStatus {
  path: string;
  counts: StoreCounts;
  services: ColonyStatusService[];
  /** The backend's notes (ClickHouse: whether derived columns are stored or computed at read time). */
  notes?: string[];
}

export async function colonyStatusOf(store: ColonyReader): Promise<ColonyStatus> {
  const counts = await store.counts();
  const services = await store.listServices();
  return {
    path: store.path,
    counts,
    services: services.map(({ firstSeenNs, lastSeenNs, ...s }) => ({ ...s, firstSeen: nsToIso(firstSeenNs), lastSeen: nsToIso(lastSeenNs) })),
    ...(store.notes && store.notes.length > 0 ? { notes: [...store.notes] } : {}),
  };
}
