import type { HoneycombClient } from './api.js';
import { derivedType, referencedColumns } from './expressions.js';
import { relativeTime } from './relative-time.js';
import { ColumnIndex } from './column-index.js';
import { ENVIRONMENT_DATASET, type HcColumn, type HcDerivedColumn } from './types.js';

export interface ColumnSearchResult {
  column: string;
  dataset: string;
  type: string;
  description: string;
  similarity: number;
  last_written: string | null;
  is_derived: boolean;
  derived_expression: string | null;
}

export interface DatasetFailure {
  dataset: string;
  reason: string;
}

export interface SearchColumnsResponse {
  results: ColumnSearchResult[];
  related_derived_columns: ColumnSearchResult[];
  total_matches: number;
  datasets_searched: number;
  has_more: boolean;
  /** Beyond the specification: datasets that could not be searched, never silently dropped. */
  datasets_failed: DatasetFailure[];
}

export interface SearchOptions {
  query: string;
  dataset?: string;
  limit?: number;
  offset?: number;
  /** Order within equal scores: `stable` (dataset, then column order) or `tokens` (shared name tokens first). */
  tieBreak?: 'stable' | 'tokens';
  now?: number;
  /** false: score in this thread only (benchmarks compare); by default large schemas share the work with a worker thread. */
  parallel?: boolean;
}

export const MAX_LIMIT = 1000;
const MAX_RELATED = 25;

/** Candidate columns of one dataset, as search results before scoring. */
function regular(dataset: string, c: HcColumn, now: number): Omit<ColumnSearchResult, 'similarity'> {
  return { column: c.key_name, dataset, type: c.type, description: c.description ?? '', last_written: relativeTime(c.last_written, now), is_derived: false, derived_expression: null };
}

function derived(dataset: string, d: HcDerivedColumn): Omit<ColumnSearchResult, 'similarity'> {
  return { column: d.alias, dataset, type: derivedType(d.expression), description: d.description ?? '', last_written: null, is_derived: true, derived_expression: d.expression };
}

/** Related words that name the same measure, for the optional tie-break only. */
const SYNONYMS: Record<string, string[]> = {
  latency: ['duration', 'time', 'elapsed'],
  duration: ['latency', 'time', 'elapsed'],
  error: ['err', 'errors', 'exception', 'fail', 'failed'],
  errors: ['error', 'err'],
  memory: ['mem', 'rss', 'heap'],
  cpu: ['processor'],
  status: ['code'],
  request: ['req', 'requests'],
};

const tokensOf = (s: string) => s.toLowerCase().split(/[.\-_\s/]+/).filter(Boolean);

/** How many of the query's tokens (or their synonyms) the column name contains. */
export function tokenOverlap(query: string, column: string): number {
  const col = new Set(tokensOf(column));
  return tokensOf(query).filter((t) => col.has(t) || (SYNONYMS[t] ?? []).some((s) => col.has(s))).length;
}

/** A candidate column stays raw until it is on the page: building a result costs more than scoring. */
interface Candidate {
  name: string;
  dataset: string;
  column?: HcColumn;
  derived?: Omit<ColumnSearchResult, 'similarity'>;
}

interface DatasetSchema {
  slug: string;
  columns: HcColumn[];
  dcs: HcDerivedColumn[];
}

/** What searching one schema needs that no query changes. */
interface Prepared {
  /** The arrays it was made from: the client's cache hands back the same ones until they expire. */
  parts: unknown[];
  candidates: Candidate[];
  index: ColumnIndex;
  /** Derived columns with the name ids their expressions reference. */
  derived: { result: Omit<ColumnSearchResult, 'similarity'>; references: number[] }[];
}

const PREPARED_PER_CLIENT = 4;
const preparedByClient = new WeakMap<HoneycombClient, Prepared[]>();

/** The prepared schema for these datasets, made once while the client's cached arrays stay the same. */
function prepare(client: HoneycombClient, datasets: DatasetSchema[], envDerived: HcDerivedColumn[]): Prepared {
  const parts: unknown[] = [envDerived, ...datasets.flatMap((d) => [d.slug, d.columns, d.dcs])];
  const kept = preparedByClient.get(client) ?? [];
  const hit = kept.find((p) => p.parts.length === parts.length && p.parts.every((x, i) => x === parts[i]));
  if (hit) return hit;
  const envAliases = new Set(envDerived.map((d) => d.alias));
  // Candidates are in dataset order, then column order, environment-wide derived columns last:
  // ties keep that order.
  const candidates: Candidate[] = [];
  const derivedResults: Omit<ColumnSearchResult, 'similarity'>[] = [];
  for (const d of datasets) {
    for (const c of d.columns) candidates.push({ name: c.key_name, dataset: d.slug, column: c });
    for (const dc of d.dcs) {
      // An environment-wide column may be listed per dataset too: report it once, as environment-wide.
      if (envAliases.has(dc.alias)) continue;
      const r = derived(d.slug, dc);
      candidates.push({ name: dc.alias, dataset: d.slug, derived: r });
      derivedResults.push(r);
    }
  }
  for (const dc of envDerived) {
    const r = derived(ENVIRONMENT_DATASET, dc);
    candidates.push({ name: dc.alias, dataset: ENVIRONMENT_DATASET, derived: r });
    derivedResults.push(r);
  }
  const index = new ColumnIndex(candidates.map((c) => c.name));
  const prepared: Prepared = {
    parts,
    candidates,
    index,
    derived: derivedResults.map((result) => ({
      result,
      references: referencedColumns(result.derived_expression ?? '').map((c) => index.nameId(c)).filter((id) => id !== undefined),
    })),
  };
  preparedByClient.set(client, [prepared, ...kept].slice(0, PREPARED_PER_CLIENT));
  return prepared;
}

export async function searchColumns(client: HoneycombClient, o: SearchOptions): Promise<SearchColumnsResponse> {
  const limit = o.limit ?? 50;
  const offset = o.offset ?? 0;
  const failed: DatasetFailure[] = [];
  const slugs = o.dataset ? [o.dataset] : (await client.datasets()).map((d) => d.slug);
  const [perDataset, envDerived] = await Promise.all([
    Promise.all(slugs.map(async (slug) => {
      try {
        const [columns, dcs] = await Promise.all([client.columns(slug), client.derivedColumns(slug)]);
        return { slug, columns, dcs };
      } catch (err) {
        failed.push({ dataset: slug, reason: (err as Error).message });
        return null;
      }
    })),
    client.derivedColumns().catch((err: Error) => {
      failed.push({ dataset: ENVIRONMENT_DATASET, reason: err.message });
      return [] as HcDerivedColumn[];
    }),
  ]);
  const now = o.now ?? Date.now();
  const prepared = prepare(client, perDataset.filter((d) => d !== null), envDerived);
  const build = (c: Candidate) => c.derived ?? regular(c.dataset, c.column as HcColumn, now);
  const ranked = prepared.index.rank(o.query.toLowerCase(), offset, limit, o.tieBreak === 'tokens' ? (name) => tokenOverlap(o.query, name) : undefined, o.parallel ?? true);
  const page = ranked.indexes.map((c, k) => ({ ...build(prepared.candidates[c]), similarity: ranked.scores[k] }));
  // Derived columns built on what matched: how a column is already used, often the better answer.
  const shown = new Set(page.filter((p) => p.is_derived).map((p) => `${p.dataset}\u0000${p.column}`));
  const related = prepared.derived
    .filter((d) => !shown.has(`${d.result.dataset}\u0000${d.result.column}`) && d.references.some((id) => ranked.matched[id] === 1))
    .slice(0, MAX_RELATED)
    .map((d) => ({ ...d.result, similarity: 0 }));
  return {
    results: page,
    related_derived_columns: related,
    total_matches: ranked.total,
    datasets_searched: perDataset.filter(Boolean).length,
    has_more: offset + page.length < ranked.total,
    datasets_failed: failed,
  };
}
