import type { Database, Params } from './db.js';
import { type Sighting, mergeSighting, sightingKey } from './sightings.js';

const REGISTRY_INTERVAL_MS = 1000;

/**
 * The service registry (coral_services) as ingest sees services. It trails ingest by at most
 * REGISTRY_INTERVAL_MS (at once for a new service or source): one upsert per group commit would
 * cost as much as the spans themselves. Readers call `sync()` first, so what they see is exact.
 */
export class ServiceRegistry {
  private readonly sightings = new Map<string, Sighting>();
  private readonly registered = new Set<string>();
  private writtenAt = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly db: Database) {}

  /** Services seen in a committed batch. */
  note(sightings: readonly Sighting[]): void {
    let fresh = false;
    for (const s of sightings) {
      const key = sightingKey(s.service, s.source);
      const p = this.sightings.get(key);
      if (!p) this.sightings.set(key, s);
      else mergeSighting(p, s);
      if (!this.registered.has(key)) fresh = true;
    }
    if (fresh || Date.now() - this.writtenAt >= REGISTRY_INTERVAL_MS) void this.sync().catch(() => undefined);
  }

  /** Writes pending registry updates; resolves when they (and any earlier ones) are committed. */
  sync(): Promise<void> {
    this.chain = this.chain.catch(() => undefined).then(async () => {
      if (this.sightings.size === 0) return;
      const seen = [...this.sightings.values()];
      this.sightings.clear();
      this.writtenAt = Date.now();
      try {
        await upsertServices(this.db, seen);
        for (const s of seen) this.registered.add(sightingKey(s.service, s.source));
      } catch (err) {
        for (const s of seen) {
          const p = this.sightings.get(sightingKey(s.service, s.source));
          if (p) mergeSighting(p, s);
          else this.sightings.set(sightingKey(s.service, s.source), s);
        }
        throw err;
      }
    });
    return this.chain;
  }
}

async function upsertServices(db: Database, seen: Sighting[]): Promise<void> {
  const values: string[] = [];
  const params: Params = {};
  seen.forEach((s, i) => {
    values.push(`($s${i}, $o${i}, $f${i}::BIGINT, $l${i}::BIGINT, $r${i})`);
    Object.assign(params, { [`s${i}`]: s.service, [`o${i}`]: s.source, [`f${i}`]: s.first, [`l${i}`]: s.last, [`r${i}`]: s.resource });
  });
  await db.registry.run(
    `INSERT INTO coral_services VALUES ${values.join(', ')}
     ON CONFLICT (service_name, source) DO UPDATE SET
       first_seen_ns = least(coral_services.first_seen_ns, excluded.first_seen_ns),
       last_seen_ns = greatest(coral_services.last_seen_ns, excluded.last_seen_ns),
       resource_attributes = excluded.resource_attributes`,
    params,
  );
}
