import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { strictInput } from '../core/input.js';
import { VERSION } from '../core/version.js';
import type { HoneycombClient } from './api.js';
import { MAX_LIMIT, type SearchColumnsResponse, searchColumns } from './search.js';
import { type EnvironmentSummaryResponse, MAX_SAMPLE_COLUMNS, environmentSummary } from './summary.js';

/**
 * The two Honeycomb tools of the analysis-tools specification: inputs and response fields exactly
 * as specified (JSON in the text, as the specification's examples show, and as structuredContent),
 * plus datasets_failed and the stale flag.
 */
const result = z.object({
  column: z.string(), dataset: z.string(), type: z.string(), description: z.string(), similarity: z.number(),
  last_written: z.string().nullable(), is_derived: z.boolean(), derived_expression: z.string().nullable(),
});
const failures = z.array(z.object({ dataset: z.string(), reason: z.string() }));
const groups = z.object({
  has_otel_traces: z.boolean(), has_http: z.boolean(), has_db: z.boolean(), has_k8s: z.boolean(), has_cloud: z.boolean(),
  has_system_metrics: z.boolean(), has_histograms: z.boolean(), has_logs: z.boolean(),
  has_rpc: z.boolean(), has_messaging: z.boolean(), has_faas: z.boolean(), has_net: z.boolean(),
});

export const searchInput = {
  query: z.string({ error: 'query must be text, e.g. "latency"' }).trim().min(1, { error: 'query must not be empty' }).max(512, { error: 'query must be at most 512 characters' })
    .describe('Search query (partial column name, supports fuzzy matching)'),
  dataset: z.string().min(1).max(512).optional().describe('Optional: specific dataset to search. If omitted, searches all datasets.'),
  limit: z.number({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}` }).int({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}` })
    .min(1, { error: `limit must be from 1 to ${MAX_LIMIT}` }).max(MAX_LIMIT, { error: `limit must be from 1 to ${MAX_LIMIT}` }).default(50)
    .describe(`Maximum results to return (default: 50, max: ${MAX_LIMIT})`),
  offset: z.number({ error: 'offset must be a whole number, 0 or more' }).int({ error: 'offset must be a whole number, 0 or more' }).min(0, { error: 'offset must be 0 or more' }).default(0)
    .describe('Offset for pagination (default: 0)'),
  tie_break: z.enum(['stable', 'tokens'], { error: 'tie_break must be stable or tokens' }).default('stable')
    .describe('Order among equal scores: stable (dataset, then column order) or tokens (shared name tokens and synonyms such as latency~duration first). Scores never change.'),
};

export const summaryInput = {
  include_sample_columns: z.boolean({ error: 'include_sample_columns must be true or false' }).default(true).describe('Include sample column names for each dataset (default: true)'),
  sample_column_count: z.number({ error: `sample_column_count must be a whole number from 1 to ${MAX_SAMPLE_COLUMNS}` }).int()
    .min(1, { error: `sample_column_count must be from 1 to ${MAX_SAMPLE_COLUMNS}` }).max(MAX_SAMPLE_COLUMNS, { error: `sample_column_count must be from 1 to ${MAX_SAMPLE_COLUMNS}` }).default(10)
    .describe(`Number of sample columns per dataset (default: 10, max: ${MAX_SAMPLE_COLUMNS})`),
};

export const SEARCH_DESCRIPTION = `Search for columns in Honeycomb datasets by name pattern.

Use this tool to find columns that match metrics from source dashboards.
Returns column names, types, and which dataset they belong to.
Includes both regular columns and derived columns, and the derived columns built on the matches.

Examples:
- Search for "latency" to find duration/latency columns
- Search for "error" to find error-related columns
- Search for "http.status" to find HTTP status code columns
- Search in a specific dataset or across all datasets`;

const derivedSummary = z.object({ alias: z.string(), expression: z.string(), description: z.string().nullable() });

export const SUMMARY_DESCRIPTION = `Get a summary of all datasets in the Honeycomb environment.

Use this tool to understand what datasets exist and their characteristics
before deciding which dataset(s) to use.

Returns dataset names, descriptions, column counts, semantic groups (OpenTelemetry conventions present),
custom columns (outside the known OpenTelemetry conventions), app_columns (custom columns less newer
OpenTelemetry and Honeycomb namespaces: the application's own attributes), sample column names,
staleness, and dataset-level and environment-wide derived columns with their expressions.`;

export type SearchArgs = z.infer<z.ZodObject<typeof searchInput>>;
export type SummaryArgs = z.infer<z.ZodObject<typeof summaryInput>>;

export function runSearch(client: HoneycombClient, a: SearchArgs): Promise<SearchColumnsResponse> {
  return searchColumns(client, { query: a.query, dataset: a.dataset, limit: a.limit, offset: a.offset, tieBreak: a.tie_break });
}

export function runSummary(client: HoneycombClient, a: SummaryArgs): Promise<EnvironmentSummaryResponse> {
  return environmentSummary(client, { includeSampleColumns: a.include_sample_columns, sampleColumnCount: a.sample_column_count });
}

function answer(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

function failure(err: unknown): CallToolResult {
  const e = err as Error & { hint?: string };
  return { content: [{ type: 'text', text: e.hint ? `${e.message} ${e.hint}` : e.message }], isError: true };
}

/** Registers the two tools on a server (the console's hub, or the stdio server below), less the disabled ones. */
export function registerHoneycombTools(server: McpServer, client: HoneycombClient, disabled: ReadonlySet<string> = new Set()): void {
  if (!disabled.has('honeycomb_search_columns')) server.registerTool('honeycomb_search_columns', {
    title: 'Search Honeycomb columns',
    description: SEARCH_DESCRIPTION,
    inputSchema: strictInput(searchInput),
    outputSchema: {
      results: z.array(result), related_derived_columns: z.array(result), total_matches: z.number(), datasets_searched: z.number(),
      has_more: z.boolean(), datasets_failed: failures,
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  }, async (a) => {
    try {
      return answer(await runSearch(client, a));
    } catch (err) {
      return failure(err);
    }
  });
  if (!disabled.has('honeycomb_get_environment_summary')) server.registerTool('honeycomb_get_environment_summary', {
    title: 'Honeycomb environment summary',
    description: SUMMARY_DESCRIPTION,
    inputSchema: strictInput(summaryInput),
    outputSchema: {
      environment: z.string(), dataset_count: z.number(),
      datasets: z.array(z.object({
        name: z.string(), description: z.string(), column_count: z.number(), derived_column_count: z.number(), last_written: z.string().nullable(),
        semantic_groups: groups, custom_columns: z.array(z.string()), app_columns: z.array(z.string()),
        derived_columns: z.array(derivedSummary), sample_columns: z.array(z.string()).optional(), is_stale: z.boolean(),
      })),
      environment_derived_columns: z.array(derivedSummary).nullable(),
      datasets_failed: failures,
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  }, async (a) => {
    try {
      return answer(await runSummary(client, a));
    } catch (err) {
      return failure(err);
    }
  });
}

/** The Honeycomb tools as an MCP server; tools switched off in config (`tools.disabled`) are left out. */
export function createHoneycombServer(client: HoneycombClient, o: { disabledTools?: ReadonlySet<string> } = {}): McpServer {
  const server = new McpServer({ name: 'coral-honeycomb', version: VERSION }, {
    instructions: 'Honeycomb column search and environment summary. Start with honeycomb_get_environment_summary to pick datasets, then honeycomb_search_columns.',
  });
  registerHoneycombTools(server, client, o.disabledTools);
  return server;
}
