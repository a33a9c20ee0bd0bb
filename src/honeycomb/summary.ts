import type { HoneycombClient } from './api.js';
import type { DatasetFailure } from './search.js';
import { isStale, relativeTime } from './relative-time.js';
import { type SemanticGroups, appColumns, customColumns, detectSemanticGroups } from './semantic.js';
import type { HcColumn, HcDerivedColumn } from './types.js';

export interface DatasetSummary {
  name: string;
  description: string;
  column_count: number;
  derived_column_count: number;
  last_written: string | null;
  semantic_groups: SemanticGroups;
  /** The specification's custom columns: outside its list of known conventions. */
  custom_columns: string[];
  /** Coral's narrower grouping: custom_columns less newer OTel and Honeycomb namespaces (semantic.ts appColumns). */
  app_columns: string[];
  /** The dataset's own derived columns with their expressions (the specification lists both levels). */
  derived_columns: DerivedColumnSummary[];
  /** When asked: the most recently written columns. */
  sample_columns?: string[];
  /** No data for more than 60 days. */
  is_stale: boolean;
}

export interface DerivedColumnSummary {
  alias: string;
  expression: string;
  description: string | null;
}

export interface EnvironmentSummaryResponse {
  environment: string;
  dataset_count: number;
  datasets: DatasetSummary[];
  environment_derived_columns: DerivedColumnSummary[] | null;
  datasets_failed: DatasetFailure[];
}

export interface SummaryOptions {
  includeSampleColumns?: boolean;
  sampleColumnCount?: number;
  now?: number;
}

export const MAX_SAMPLE_COLUMNS = 50;

const derivedSummary = (d: HcDerivedColumn): DerivedColumnSummary => ({ alias: d.alias, expression: d.expression, description: d.description || null });

function samples(columns: HcColumn[], n: number): string[] {
  return [...columns]
    .filter((c) => !c.hidden)
    .sort((a, b) => (b.last_written ?? '').localeCompare(a.last_written ?? '') || a.key_name.localeCompare(b.key_name))
    .slice(0, n)
    .map((c) => c.key_name);
}

export async function environmentSummary(client: HoneycombClient, o: SummaryOptions = {}): Promise<EnvironmentSummaryResponse> {
  const include = o.includeSampleColumns ?? true;
  const n = Math.min(o.sampleColumnCount ?? 10, MAX_SAMPLE_COLUMNS);
  const failed: DatasetFailure[] = [];
  const [auth, datasets, envDerived] = await Promise.all([
    client.auth(),
    client.datasets(),
    client.derivedColumns().catch((err: Error) => {
      failed.push({ dataset: '__environment__', reason: err.message });
      return null;
    }),
  ]);
  const summaries = await Promise.all(datasets.map(async (d): Promise<DatasetSummary | null> => {
    try {
      const [columns, dcs] = await Promise.all([client.columns(d.slug), client.derivedColumns(d.slug)]);
      // "Now" once the answer is in: relative ages are about the data just read.
      const now = o.now ?? Date.now();
      const names = columns.map((c) => c.key_name);
      return {
        name: d.slug,
        description: d.description ?? '',
        column_count: columns.length,
        derived_column_count: dcs.length,
        last_written: relativeTime(d.last_written_at, now),
        semantic_groups: detectSemanticGroups(names),
        custom_columns: customColumns(names),
        app_columns: appColumns(names),
        derived_columns: dcs.map(derivedSummary),
        ...(include ? { sample_columns: samples(columns, n) } : {}),
        is_stale: isStale(d.last_written_at, now),
      };
    } catch (err) {
      failed.push({ dataset: d.slug, reason: (err as Error).message });
      return null;
    }
  }));
  // Classic keys have no environment: the team stands in for it.
  const environment = auth.environment?.name || auth.environment?.slug || `${auth.team?.slug ?? 'unknown'} (classic)`;
  return {
    environment,
    dataset_count: datasets.length,
    datasets: summaries.filter((s): s is DatasetSummary => s !== null),
    environment_derived_columns: envDerived ? envDerived.map(derivedSummary) : null,
    datasets_failed: failed,
  };
}
