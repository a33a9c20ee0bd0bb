#!/usr/bin/env node
import { type Command, Option } from 'commander';
import { VERSION } from './core/version.js';
import { describeError, CoralError } from './core/errors.js';
import { terminalSafe } from './core/terminal-text.js';
import { applyRootOptions } from './commands/cli-globals.js';
import { addNestedHelp, unknownCommandMessage } from './commands/command-tree.js';
import { CoralCommand, FLAT_FORMATS, TRACE_FORMATS, settleOutput } from './commands/output-option.js';
import { applyTokenOptions } from './commands/token-options.js';

/**
 * Entry point. Parses argv with nothing heavy loaded; each command's module (DuckDB, HTTP servers)
 * is imported only when that command runs, so --help and --version answer at once.
 */
const CLICKHOUSE_HELP = 'a ClickHouse colony (tables of the OpenTelemetry Collector\'s clickhouse exporter): http(s)://[user@]host:8123[/database] or chdb:DIR';

const program = new CoralCommand()
  .name('coral')
  .description('Coral: incident investigation over eBPF and OpenTelemetry data, from the terminal.')
  .version(VERSION, '-v, --version')
  .showHelpAfterError('(run with --help for usage)')
  .configureHelp({ sortSubcommands: true })
  .enablePositionalOptions()
  // `coral querry` reaches the console's action: it reports the unknown command itself (below).
  .allowExcessArguments()
  .helpCommand(true)
  .option('--scenario <name>', 'console: the demo scenario to open (default payment-failure)')
  .option('--db <file>', 'console: a colony database file instead of the demo')
  .option('--clickhouse <url>', `console: ${CLICKHOUSE_HELP}`)
  .option('--colony <url>', 'console: a running colony instead of the demo')
  .option('--token <secret>', 'console: bearer token for --colony (visible in ps: prefer --token-file or CORAL_COLONY_TOKEN)')
  .option('--token-file <path>', 'read the bearer token from this file (other users see a --token in ps)')
  .option('--model <provider:model>', 'console: the model (default: config, else the recorded investigation or automatic triage)')
  .option('-y, --yes', 'console: accept sending telemetry to a cloud model without asking (remembered per provider)')
  .option('--since <duration>', 'console: the window questions are about, this far back from now (30m, 24h, 7d)')
  .option('--from <time>', 'console: window start (ISO-8601, UTC unless an offset; 13:05 UTC today; now-2h)')
  .option('--to <time>', 'console: window end, as --from (default now)')
  .action(async (opts, cmd: Command) => {
    if (cmd.args.length > 0) {
      // Commander's wording, with the nearest command suggested (or those there are).
      cmd.error(unknownCommandMessage(cmd.args[0], cmd), { exitCode: 1, code: 'commander.unknownCommand' });
    }
    await (await import('./commands/console.js')).consoleCommand(opts);
  });

program.hook('preAction', (root, leaf) => {
  applyRootOptions(root, leaf);
  applyTokenOptions(leaf);
  settleOutput(leaf);
});

const colony = program.command('colony').description('the embedded telemetry store and its OTLP receiver').helpCommand(true);

colony
  .command('serve')
  // RFD 030's `coral colony start` starts the colony: the same command.
  .alias('start')
  .description('receive OTLP over HTTP and gRPC (traces, metrics, logs) into the colony, and serve its MCP tools')
  .option('--db <file>', 'colony database file, or :memory: (default: ~/.coral/colony.duckdb; CORAL_HOME moves ~/.coral)')
  .option('--clickhouse <url>', `${CLICKHOUSE_HELP}; creates the exporter's tables when missing`)
  .option('--otlp-host <host>', 'address to listen on (OTLP and /mcp)', '127.0.0.1')
  .option('--otlp-port <port>', 'OTLP/HTTP port, also /mcp (0 picks a free one)', '4318')
  .option('--otlp-grpc-port <port>', 'OTLP/gRPC port (0 picks a free one)', '4317')
  .option('--no-otlp-grpc', 'do not listen for OTLP/gRPC')
  .option('--max-body-mb <mb>', 'largest accepted request body, after decompression', '20')
  .option('--max-export-items <n>', 'most spans (with their events and links), log records and metric data points in one export (beyond: 413, gRPC RESOURCE_EXHAUSTED)', '65536')
  .option('--max-inflight-mb <mb>', 'exports held at once across requests, bodies and the batches they decode into (beyond: 429 + Retry-After)', '64')
  .option('--decode-workers <n>', 'threads decoding OTLP exports beside the main one (default: 2, 1 on a single core; 0: decode on the main thread)')
  .addOption(new Option('--threads <n>', 'DuckDB worker threads').default('1'))
  .addOption(new Option('--memory-limit <size>', 'DuckDB memory cap, e.g. 2GB').default('4GB'))
  .option('--max-wal-mb <mb>', 'write-ahead log size past which the colony checkpoints (beside ingest): a crash leaves at most this much to replay at the next start (default 8)')
  .option('--retain <duration>', 'drop data older than this (e.g. 7d, 24h), a bounded step at a time, checked every minute (default: keep everything)')
  .option('--token <secret>', 'require this bearer token on /mcp and OTLP (HTTP and gRPC; required to listen beyond loopback; or CORAL_COLONY_TOKEN)')
  .option('--token-file <path>', 'read the bearer token from this file (other users see a --token in ps)')
  .option('--otlp-auth <mode>', 'token: OTLP requires --token too; none: OTLP open, only /mcp needs it', 'token')
  .option('--no-mcp', 'do not serve the MCP tools at /mcp')
  .option('--max-mcp-sessions <n>', 'MCP sessions kept at once; each client (a remote address, or a program on this machine) may hold 16 of them', '64')
  .option('--list-deprecated-tools', 'also list the old coral_query_beyla_* tool names (they answer either way)')
  .action(async (opts) => (await import('./commands/colony-serve.js')).colonyServe(opts));

colony
  .command('status')
  .description('what the colony holds: row counts and the services seen, by source (through the running colony when it holds the file)')
  .option('--db <file>', 'colony database file (default: ~/.coral/colony.duckdb, or CORAL_COLONY / config colony.url)')
  .option('--clickhouse <url>', CLICKHOUSE_HELP)
  .option('--colony <url>', 'a running colony, e.g. http://127.0.0.1:4318')
  .option('--token <secret>', 'bearer token for --colony (visible in ps: prefer --token-file or CORAL_COLONY_TOKEN)')
  .option('--token-file <path>', 'read the bearer token from this file (other users see a --token in ps)')
  .outputs(['text', 'json'])
  .action(async (opts) => (await import('./commands/colony-status.js')).colonyStatus(opts));

program
  .command('ask <question>')
  .description('ask the agent: it investigates with the colony and Honeycomb tools and answers with its sources')
  .option('--model <provider:model>', 'google:gemini-2.5-flash, openai:gpt-4o-mini, anthropic:claude-sonnet-4-6, ollama:llama3.2, replay:<scenario|file>, triage:automatic')
  .option('--demo <scenario>', 'investigate a demo scenario (in memory); without a model its recorded investigation plays')
  .option('--db <file>', 'colony database file (default: ~/.coral/colony.duckdb)')
  .option('--clickhouse <url>', CLICKHOUSE_HELP)
  .option('--colony <url>', 'a running colony, e.g. http://127.0.0.1:4318')
  .option('--token <secret>', 'bearer token for --colony (visible in ps: prefer --token-file or CORAL_COLONY_TOKEN)')
  .option('--token-file <path>', 'read the bearer token from this file (other users see a --token in ps)')
  .outputs(['text', 'json'], ' (json: exactly one object: answer, model, tool_calls, citations, usage)')
  .option('--stream', 'print the answer as it is written (the default on a terminal)')
  .option('--events', 'print every agent event as a JSON line')
  .option('--continue', 'continue the latest conversation (on the colony it used)')
  .option('--resume <id>', 'continue this conversation')
  .option('--record <file>', 'save the model\'s rounds so replay:<file> can play them')
  .option('--max-tool-rounds <n>', 'tool rounds before the model must answer (default 8)')
  .option('--since <duration>', 'the window the question is about: this far back from now (30m, 24h, 7d); every tool call uses it')
  .option('--from <time>', 'window start: ISO-8601 (UTC unless it has an offset), 13:05 (UTC, today), epoch seconds or ms, now-2h')
  .option('--to <time>', 'window end, as --from (default now); alone, the window is --since (default 30m) back from it')
  .option('-y, --yes', 'accept sending telemetry to a cloud model without asking (remembered per provider)')
  .action(async (question, o) => (await import('./commands/ask.js')).ask(question, o));

const config = program.command('config').description('the settings coral ask and the console use (~/.coral/config.yaml, .coral/config.yaml)').helpCommand(true);
config
  .command('show')
  .description('the effective settings, where each comes from, secrets masked')
  .outputs(['text', 'json'])
  .action(async (o) => (await import('./commands/config.js')).configShow(o));
config
  .command('validate')
  .description('check the config files, the keys and variables they reference, and the MCP server commands')
  .outputs(['text', 'json'], ' (json: {valid, problems})')
  .action(async (o) => (await import('./commands/config.js')).configValidate(o));
config
  .command('trust')
  .description('let this directory\'s .coral/config.yaml run its MCP servers and use its keys and URLs (asked again when it changes)')
  .option('--show', 'only show what trusting would enable')
  .action(async (o) => (await import('./commands/config-trust.js')).configTrust(o));
config
  .command('set <key> <value>')
  .description('set one key in ~/.coral/config.yaml (e.g. ai.ask.default_model ollama:llama3.2, colony.url http://127.0.0.1:4318)')
  .option('--project', 'write .coral/config.yaml in this directory instead')
  .action(async (key, value, o) => (await import('./commands/config-edit.js')).configSet(key, value, o));
config
  .command('init')
  .description('write ~/.coral/config.yaml by answering a few questions (keys stay in environment variables: env://NAME)')
  .option('--force', 'replace an existing file')
  .action(async (o) => (await import('./commands/config-edit.js')).configInit(o));
config
  .command('set-key <provider>')
  .description('store an API key (google, openai, anthropic, honeycomb) in the system keyring, read without echo or from stdin')
  .action(async (provider) => (await import('./commands/config-set-key.js')).configSetKey(provider));

const mcp = program.command('mcp').description('serve the colony\'s tools over stdio to MCP clients (Claude Desktop, IDEs); bridges to the running colony when there is one').helpCommand(true);
mcp
  .option('--db <file>', 'colony database file (default: ~/.coral/colony.duckdb)')
  .option('--clickhouse <url>', CLICKHOUSE_HELP)
  .option('--colony <url>', 'bridge stdio to this running colony, e.g. http://127.0.0.1:4318')
  .option('--token <secret>', 'bearer token for --colony (visible in ps: prefer --token-file or CORAL_COLONY_TOKEN)')
  .option('--token-file <path>', 'read the bearer token from this file (other users see a --token in ps)')
  .option('--demo <scenario>', 'serve an in-memory colony with this demo scenario loaded')
  .option('--list-deprecated-tools', 'also list the old coral_query_beyla_* tool names')
  .action(async (opts) => (await import('./commands/mcp.js')).mcpServe(opts));
mcp
  .command('config')
  .description('print the JSON snippet an MCP client needs to start `coral mcp`')
  .addOption(new Option('--client <name>', 'the MCP client: claude (Claude Desktop), cursor or vscode').choices(['claude', 'cursor', 'vscode']).default('claude'))
  .option('--db <file>', 'colony database file to serve')
  .option('--colony <url>', 'a running colony to bridge to')
  .option('--demo <scenario>', 'serve a demo scenario instead')
  // The parent `mcp` declares the same options, so they may land on it: read both levels.
  .action(async (_opts, cmd: Command) => (await import('./commands/mcp.js')).mcpConfig(cmd.optsWithGlobals()));

const query = program
  .command('query')
  .description('ask the colony directly, with the same tools the agent uses (no model needed)')
  .helpCommand(true);

/**
 * Options every query sub-command takes: where the colony is, which window (`since`: its default;
 * null for a read no window bounds, a trace by id), how to print.
 */
function queryCommand(parent: CoralCommand, spec: string, description: string, since: string | null = '1h', formats = FLAT_FORMATS): CoralCommand {
  const cmd = parent.command(spec).description(description);
  if (since !== null) {
    cmd
      .option('--since <duration>', 'how far back from now: 30m, 1h, 24h, 7d', since)
      .option('--from <time>', 'window start: ISO-8601 (UTC unless it has an offset), 13:05 (UTC, today), epoch seconds or ms, now-2h; runs to --to, else now')
      .option('--to <time>', 'window end, as --from; alone, the window is --since back from it');
  }
  return cmd
    .outputs(formats)
    .option('--db <file>', 'colony database file (default: ~/.coral/colony.duckdb, or CORAL_COLONY / config colony.url)')
    .option('--clickhouse <url>', CLICKHOUSE_HELP)
    .option('--colony <url>', 'a running colony, e.g. http://127.0.0.1:4318')
    .option('--token <secret>', 'bearer token for --colony (visible in ps: prefer --token-file or CORAL_COLONY_TOKEN)')
    .option('--token-file <path>', 'read the bearer token from this file (other users see a --token in ps)')
    .option('--demo <scenario>', 'query an in-memory colony with this demo scenario loaded');
}

const q = async () => import('./commands/query.js');

queryCommand(query, 'metrics <service>', 'RED metrics from eBPF and OTLP, merged (coral_query_metrics)')
  .option('--protocol <p>', 'auto, http, grpc or sql', 'auto')
  .option('--route <route>', 'HTTP route').option('--method <method>', 'HTTP method').option('--status <class>', 'HTTP status class: 2xx..5xx')
  .option('--grpc-method <m>', 'gRPC method').option('--grpc-status <code>', 'gRPC status code 0-16')
  .option('--sql-operation <op>', 'SQL operation').option('--table <name>', 'SQL table')
  .action(async (service, o) => {
    const { runQuery, int } = await q();
    await runQuery('coral_query_metrics', {
      service, protocol: o.protocol, http_route: o.route, http_method: o.method, status_code_range: o.status,
      grpc_method: o.grpcMethod, grpc_status_code: int('--grpc-status', o.grpcStatus, 0, 16), sql_operation: o.sqlOperation, table_name: o.table,
    }, o, 'table');
  });

queryCommand(query, 'traces [service]', 'traces as merged span trees (coral_query_traces)', '1h', TRACE_FORMATS)
  .option('--min-duration <d>', 'only traces with a span this slow: 500ms, 2s')
  .option('--max <n>', 'how many traces (1-50)', '10')
  .option('--order <o>', 'errors (failing first, then slowest), duration or recent', 'errors')
  .action(async (service, o) => {
    const { runQuery, ms, int } = await q();
    await runQuery('coral_query_traces', { service, min_duration_ms: ms(o.minDuration), max_traces: int('--max', o.max, 1, 50), order: o.order }, o, 'tree');
  });

// A trace by id is read whatever its time: no window to choose.
queryCommand(query, 'trace <id>', 'one trace, merged (coral_query_traces with trace_id)', null, TRACE_FORMATS)
  .action(async (id, o) => (await q()).runQuery('coral_query_traces', { trace_id: id }, o, 'tree'));

// The same default as the tool's time_range: the last half hour against the half hour before.
queryCommand(query, 'summary', 'where to look first (coral_query_summary)', '30m')
  .action(async (o) => (await q()).runQuery('coral_query_summary', {}, o, 'text'));

queryCommand(query, 'breakdown [service]', 'what the failing or slow requests of a service have in common (coral_query_breakdown)', '30m')
  .option('--service <name>', 'the service (or give it as the argument)')
  .option('--operation <op>', 'only this operation, route or span name')
  .option('--compare <c>', 'auto, errors, slow or window', 'auto')
  .option('--threshold <d>', 'with --compare slow: what counts as slow (250ms, 1s) instead of the P95')
  .action(async (service, o) => {
    const { runQuery, ms } = await q();
    await runQuery('coral_query_breakdown', { service: o.service ?? service, operation: o.operation, compare: o.compare, threshold_ms: ms(o.threshold) }, o, 'text');
  });

queryCommand(query, 'timeseries [service]', 'a signal over time, a point per step, with a sparkline (coral_query_timeseries)')
  .option('--signal <s>', 'requests, errors, error_rate, p50, p95, p99, latency_heatmap, metric (with --metric) or logs', 'requests')
  .option('--metric <name>', 'with --signal metric: the metric\'s name, e.g. process.memory.usage')
  .option('--operation <op>', 'only this operation, route or span name')
  .option('--attr <key=value>', 'only what has this attribute value (the span\'s own, else its resource\'s); repeatable', (v: string, all: string[] = []) => [...all, v])
  .option('--group-by <key>', 'one series per value of this attribute (k8s.pod.name, service.version, service.name), the largest apart, the rest as other')
  .option('--limit <n>', 'with --group-by: how many series apart (1-20)', '5')
  .option('--step <d>', 'the width of a point: 10s, 1m, 5m (default: automatic, 60-120 points)')
  .option('--quantile <q>', 'with a histogram metric: the quantile per step, e.g. 0.99 (default 0.95)')
  .option('--aggregate <a>', 'with a gauge metric: how its series combine per step: avg, sum, min or max')
  .action(async (service, o) => {
    const { runQuery, int, attributes, number } = await q();
    await runQuery('coral_query_timeseries', {
      service, signal: o.signal, metric: o.metric, operation: o.operation, attributes: attributes(o.attr), group_by: o.groupBy,
      limit: int('--limit', o.limit, 1, 20), step: o.step, quantile: number('--quantile', o.quantile), aggregate: o.aggregate,
    }, o, 'table');
  });

queryCommand(query, 'health [service]', 'service health (coral_get_service_health)')
  .action(async (service, o) => (await q()).runQuery('coral_get_service_health', { service }, o, 'table'));

queryCommand(query, 'topology', 'who calls whom (coral_get_service_topology)')
  .action(async (o) => (await q()).runQuery('coral_get_service_topology', {}, o, 'table'));

queryCommand(query, 'events [service]', 'deploys, restarts, config changes (coral_query_events)')
  .option('--kind <kind>', 'deploy, restart, crash, alert or config_change')
  .action(async (service, o) => (await q()).runQuery('coral_query_events', { service, kind: o.kind }, o, 'table'));

const ebpf = query.command('ebpf').description('eBPF data only (Grafana Beyla, OpenTelemetry eBPF Instrumentation)').helpCommand(true);
for (const p of ['http', 'grpc', 'sql'] as const) {
  queryCommand(ebpf, `${p} <service>`, `eBPF ${p.toUpperCase()} metrics (coral_query_ebpf_${p}_metrics)`)
    .action(async (service, o) => (await q()).runQuery(`coral_query_ebpf_${p}_metrics`, { service }, o, 'table'));
}
queryCommand(ebpf, 'traces [service]', 'traces of eBPF spans only (coral_query_ebpf_traces)', '1h', TRACE_FORMATS)
  .option('--min-duration <d>', 'only traces with a span this slow').option('--max <n>', 'how many traces (1-50)', '10')
  .action(async (service, o) => {
    const { runQuery, ms, int } = await q();
    await runQuery('coral_query_ebpf_traces', { service, min_duration_ms: ms(o.minDuration), max_traces: int('--max', o.max, 1, 50) }, o, 'tree');
  });

const telemetry = query.command('telemetry').description('OTLP (SDK) data only').helpCommand(true);
queryCommand(telemetry, 'spans [service]', 'traces of OTLP spans only (coral_query_telemetry_spans)', '1h', TRACE_FORMATS)
  .option('--min-duration <d>', 'only traces with a span this slow').option('--max <n>', 'how many traces (1-50)', '10')
  .action(async (service, o) => {
    const { runQuery, ms, int } = await q();
    await runQuery('coral_query_telemetry_spans', { service, min_duration_ms: ms(o.minDuration), max_traces: int('--max', o.max, 1, 50) }, o, 'tree');
  });
queryCommand(telemetry, 'metrics <service>', 'OTLP metrics of a service (coral_query_telemetry_metrics)')
  .option('--metric <text>', 'part of a metric name')
  .action(async (service, o) => (await q()).runQuery('coral_query_telemetry_metrics', { service, metric: o.metric }, o, 'table'));
queryCommand(telemetry, 'logs [service]', 'logs, newest first (coral_query_telemetry_logs)')
  .option('--level <level>', 'minimum level: debug, info, warn, error').option('--search <text>', 'text in the body')
  .option('--trace-id <id>', 'logs of one trace').option('--limit <n>', 'how many (1-500)', '50')
  .action(async (service, o) => {
    const { runQuery, int } = await q();
    await runQuery('coral_query_telemetry_logs', { service, level: o.level, search: o.search, trace_id: o.traceId, limit: int('--limit', o.limit, 1, 500) }, o, 'table');
  });

const honeycomb = program.command('honeycomb').description('find columns across Honeycomb datasets (the bundled fake environment without HONEYCOMB_API_KEY)').helpCommand(true);

/** Where the Honeycomb answers come from. */
function honeycombCommand(spec: string, description: string): CoralCommand {
  return honeycomb
    .command(spec)
    .description(description)
    .option('--demo', 'use the bundled fake environment even with HONEYCOMB_API_KEY set')
    .addOption(new Option('--fake-environment <name>', 'fake environment: demo, large (29,000 columns) or wide (100,000 columns)').choices(['demo', 'large', 'wide']))
    .option('--region <region>', 'us (default) or eu')
    .option('--api-url <url>', 'Honeycomb API base URL (overrides --region)');
}

honeycombCommand('search <query>', 'search columns by name across datasets (honeycomb_search_columns)')
  .option('--dataset <slug>', 'search one dataset only')
  .option('--limit <n>', 'results per page (1-1000)', '50')
  .option('--offset <n>', 'skip this many results', '0')
  .addOption(new Option('--tie-break <order>', 'order among equal scores').choices(['stable', 'tokens']))
  .outputs(['table', 'json'])
  .action(async (query, o) => (await import('./commands/honeycomb.js')).honeycombSearch(query, o));

honeycombCommand('summary', 'datasets, their conventions and custom columns (honeycomb_get_environment_summary)')
  .option('--samples <n>', 'sample columns per dataset (1-50)', '10')
  .option('--no-samples', 'leave sample columns out')
  .outputs(['table', 'json'])
  .action(async (o) => (await import('./commands/honeycomb.js')).honeycombSummary(o));

honeycombCommand('mcp', 'serve the two Honeycomb tools over stdio to MCP clients')
  .action(async (o) => (await import('./commands/honeycomb.js')).honeycombMcp(o));

const demo = program.command('demo').description('bundled incident scenarios modelled on the OpenTelemetry Demo').helpCommand(true);

demo
  .command('list')
  .description('the scenarios: name, size and one-line story')
  .outputs(['table', 'json'], ' (json: with each scenario\'s ground truth)')
  .action(async (opts) => (await import('./commands/demo.js')).demoList(opts));

demo
  .command('load <scenario>')
  .description('load a scenario into a colony, shifted so that its hour ends now (over OTLP into the running colony when it holds the file)')
  .option('--db <file>', 'colony database file, or :memory: (default: ~/.coral/colony.duckdb)')
  .option('--clickhouse <url>', `${CLICKHOUSE_HELP}; creates the exporter's tables when missing`)
  .option('--at <time>', 'end the scenario at this instant instead of now (ISO-8601, epoch seconds or ms, now-1h)')
  .outputs(['text', 'json'])
  .action(async (name, opts) => (await import('./commands/demo.js')).demoLoad(name, opts));

demo
  .command('replay <scenario>')
  .description('stream a scenario over OTLP into a running colony, so the incident unfolds live')
  .option('--speed <n>', 'times faster than real time (60 plays the hour in a minute)', '10')
  .option('--otlp <url>', 'OTLP receiver (default: OTEL_EXPORTER_OTLP_ENDPOINT, else http://127.0.0.1:4318, or :4317 for grpc)')
  .addOption(new Option('--protocol <p>', 'OTLP protocol (default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/json)').choices(['http/json', 'http/protobuf', 'grpc']))
  .outputs(['text', 'json'])
  .action(async (name, opts) => (await import('./commands/demo.js')).demoReplay(name, opts));

demo
  .command('generate [scenario...]')
  .description('rebuild the scenario files from the seeded generator (developers)')
  .option('--out <dir>', 'write here instead of demo-data/scenarios')
  .option('--check', 'only check that regenerating reproduces the committed files')
  .action(async (names, opts) => (await import('./commands/demo.js')).demoGenerate(names, opts));

demo
  .command('eval [scenario...]')
  .description('run the summary and the automatic triage on every scenario with several generator seeds, scored against the ground truth')
  .option('--seeds <n>', 'seeds per scenario: the committed one, then others generated on the spot', '3')
  .option('--random <n>', 'also N random incidents drawn by the generator (fault type, service, onset, sampling, noise)', '0')
  .option('--questions [path]', 'instead: ask a question set (a .json file or a directory of them; default test/triage/questions) and score each answer')
  .option('--min-full <share>', 'with --questions: exit non-zero below this share fully answered (or on any confidently wrong answer)', '0.9')
  .outputs(['table', 'json'], ' (the rows and the per-kind scores)')
  .action(async (names, opts) => (await import('./commands/demo.js')).demoEval(names, opts));

program
  .command('completion <shell>')
  .description('print a completion script for bash, zsh or fish (see the README to install it)')
  .action(async (shell: string) => (await import('./commands/completion.js')).printCompletion(shell, program));

// Last, so that every group's help (replacing the helpCommand(true) above) reaches nested commands.
addNestedHelp(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  // An error may quote what it refused (a flag, a file's content): shown, never acted on by the terminal.
  process.stderr.write(`coral: ${terminalSafe(describeError(err))}\n`);
  if (!(err instanceof CoralError) && err instanceof Error && process.env.CORAL_DEBUG) process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
