import Table from 'cli-table3';
import { parseIntOption } from '../core/args.js';
import { tableStyle } from '../core/color.js';
import { progress } from '../core/progress.js';
import type { HoneycombClient } from '../honeycomb/api.js';
import { parseToolInput } from '../core/input.js';
import { type HoneycombConnectOptions, connectHoneycomb } from '../honeycomb/connect.js';
import { honeycombOptions } from '../agent/honeycomb-options.js';
import { resolveDisabledTools } from '../agent/config.js';
import { jsonForTerminal, terminalSafe, terminalSafeDeep } from '../core/terminal-text.js';
import { runSearch, runSummary, searchInput, summaryInput } from '../honeycomb/tools.js';

interface CommonOptions extends HoneycombConnectOptions {
  output?: string;
}

function tableOf(head: string[], rows: string[][]): string {
  const t = new Table({ head, style: tableStyle(), wordWrap: true });
  t.push(...rows);
  return t.toString();
}

/** The format settled by the CLI's `.outputs(['table', 'json'])` (output-option.ts), table by default. */
function format(o: CommonOptions): 'table' | 'json' {
  return o.output === 'json' ? 'json' : 'table';
}

async function withConnection<T>(o: CommonOptions, fn: (c: Awaited<ReturnType<typeof connectHoneycomb>>) => Promise<T>): Promise<T> {
  const conn = await connectHoneycomb(honeycombOptions(o));
  process.stderr.write(`coral honeycomb: using ${conn.describe}\n`);
  try {
    return await fn(conn);
  } finally {
    await conn.close();
  }
}

/** `coral honeycomb search <query>`. */
export async function honeycombSearch(query: string, o: CommonOptions & { dataset?: string; limit: string; offset: string; tieBreak?: string }): Promise<void> {
  const fmt = format(o);
  const args = parseToolInput('honeycomb_search_columns', searchInput, {
    query, dataset: o.dataset, limit: parseIntOption('--limit', o.limit, 1, 1000), offset: parseIntOption('--offset', o.offset, 0, Number.MAX_SAFE_INTEGER), tie_break: o.tieBreak,
  });
  await withConnection(o, async ({ client }) => {
    const found = await runSearch(client, args);
    if (fmt === 'json') {
      process.stdout.write(`${jsonForTerminal(found, 2)}\n`);
      return;
    }
    // Column names and expressions come from the Honeycomb environment: shown, never acted on by the terminal.
    const r = terminalSafeDeep(found);
    if (r.results.length === 0) process.stdout.write(`No columns match "${terminalSafe(query)}" in ${r.datasets_searched} datasets.\n`);
    else {
      process.stdout.write(`${tableOf(['column', 'dataset', 'type', 'score', 'last written', 'derived expression'], r.results.map((c) => [
        c.column, c.dataset, c.type, c.similarity.toFixed(3), c.last_written ?? '', c.derived_expression ?? '',
      ]))}\n`);
      process.stdout.write(`${args.offset + 1}-${args.offset + r.results.length} of ${r.total_matches} matches in ${r.datasets_searched} datasets${r.has_more ? ` (more: --offset ${args.offset + r.results.length})` : ''}\n`);
    }
    if (r.related_derived_columns.length > 0) {
      process.stdout.write(`\nDerived columns built on these matches:\n${r.related_derived_columns.map((d) => `  ${d.column} (${d.dataset}): ${d.derived_expression}`).join('\n')}\n`);
    }
    for (const f of r.datasets_failed) process.stderr.write(`warning: dataset ${f.dataset} could not be searched: ${f.reason}\n`);
  });
}

/**
 * Progress per dataset on stderr: a cold summary reads every dataset's columns, which takes long on a
 * large, rate-limited environment. The client's methods are wrapped on the instance, nothing else changes.
 */
function withDatasetProgress(client: HoneycombClient): HoneycombClient {
  const p = progress('reading datasets');
  const datasets = client.datasets.bind(client);
  const columns = client.columns.bind(client);
  let total = 0;
  let done = 0;
  client.datasets = async () => {
    const list = await datasets();
    total = list.length;
    return list;
  };
  client.columns = async (slug) => {
    const c = await columns(slug);
    done++;
    if (total > 0) {
      p.update(done / total, `(${done} of ${total})`);
      if (done === total) p.done(`${total} datasets`);
    }
    return c;
  };
  return client;
}

/** `coral honeycomb summary`. */
export async function honeycombSummary(o: CommonOptions & { samples: string | false }): Promise<void> {
  const fmt = format(o);
  // --no-samples and --samples N share one option: false, or the count.
  const include = o.samples !== false;
  const args = parseToolInput('honeycomb_get_environment_summary', summaryInput, { include_sample_columns: include, sample_column_count: include ? parseIntOption('--samples', o.samples as string, 1, 50) : 10 });
  await withConnection(o, async ({ client }) => {
    const summary = await runSummary(withDatasetProgress(client), args);
    if (fmt === 'json') {
      process.stdout.write(`${jsonForTerminal(summary, 2)}\n`);
      return;
    }
    const r = terminalSafeDeep(summary);
    process.stdout.write(`Environment ${r.environment}: ${r.dataset_count} datasets\n`);
    process.stdout.write(`${tableOf(['dataset', 'columns', 'derived', 'last written', 'conventions', 'app columns', ...(include ? ['sample columns'] : [])], r.datasets.map((d) => [
      d.is_stale ? `${d.name} (stale)` : d.name,
      String(d.column_count),
      String(d.derived_column_count),
      d.last_written ?? 'never',
      Object.entries(d.semantic_groups).filter(([, v]) => v).map(([k]) => k.replace(/^has_/, '')).join(' '),
      d.app_columns.slice(0, 6).join(', '),
      ...(include ? [(d.sample_columns ?? []).join(', ')] : []),
    ]))}\n`);
    if (r.environment_derived_columns?.length) {
      process.stdout.write(`\nEnvironment-wide derived columns:\n${r.environment_derived_columns.map((d) => `  ${d.alias}: ${d.expression}`).join('\n')}\n`);
    }
    for (const f of r.datasets_failed) process.stderr.write(`warning: dataset ${f.dataset} could not be summarised: ${f.reason}\n`);
  });
}

/** `coral honeycomb mcp`: the two tools over stdio. */
export async function honeycombMcp(o: HoneycombConnectOptions): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createHoneycombServer } = await import('../honeycomb/tools.js');
  const conn = await connectHoneycomb(honeycombOptions(o));
  process.stderr.write(`coral honeycomb mcp: serving ${conn.describe} over stdio\n`);
  const server = createHoneycombServer(conn.client, { disabledTools: resolveDisabledTools({ quiet: true }) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  await conn.close();
}
