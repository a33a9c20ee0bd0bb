#!/usr/bin/env node
import { Command, Option } from 'commander';
import { VERSION } from './core/version.js';
import { describeError, CoralError } from './core/errors.js';

/**
 * Entry point. Parses argv with nothing heavy loaded; each command's module (DuckDB, HTTP servers)
 * is imported only when that command runs, so --help and --version answer at once.
 */
const program = new Command()
  .name('coral')
  .description('Coral: incident investigation over eBPF and OpenTelemetry data, from the terminal.')
  .version(VERSION, '-v, --version')
  .showHelpAfterError('(run with --help for usage)')
  .configureHelp({ sortSubcommands: true });

const colony = program.command('colony').description('the embedded telemetry store and its OTLP receiver');

colony
  .command('serve')
  .description('receive OTLP/HTTP (traces, metrics, logs; JSON and protobuf) into the colony')
  .option('--db <file>', 'colony database file, or :memory: (default: ~/.coral/colony.duckdb; CORAL_HOME moves ~/.coral)')
  .option('--otlp-host <host>', 'address to listen on', '127.0.0.1')
  .option('--otlp-port <port>', 'OTLP/HTTP port (0 picks a free one)', '4318')
  .option('--max-body-mb <mb>', 'largest accepted request body, after decompression', '20')
  .addOption(new Option('--threads <n>', 'DuckDB worker threads').default('2'))
  .addOption(new Option('--memory-limit <size>', 'DuckDB memory cap, e.g. 2GB').default('4GB'))
  .action(async (opts) => (await import('./commands/colony-serve.js')).colonyServe(opts));

colony
  .command('status')
  .description('what the colony holds: row counts and the services seen, by source')
  .option('--db <file>', 'colony database file (default: ~/.coral/colony.duckdb)')
  .option('--json', 'print JSON instead of text')
  .action(async (opts) => (await import('./commands/colony-status.js')).colonyStatus(opts));

const demo = program.command('demo').description('bundled incident scenarios modelled on the OpenTelemetry Demo');

demo
  .command('list')
  .description('the scenarios: name, size and one-line story')
  .option('--json', 'print JSON (with each scenario\'s ground truth)')
  .action(async (opts) => (await import('./commands/demo.js')).demoList(opts));

demo
  .command('load <scenario>')
  .description('load a scenario into a colony, shifted so that its hour ends now')
  .option('--db <file>', 'colony database file, or :memory: (default: ~/.coral/colony.duckdb)')
  .option('--at <time>', 'end the scenario at this instant instead of now (ISO-8601 or epoch ms)')
  .option('--json', 'print the result as JSON')
  .action(async (name, opts) => (await import('./commands/demo.js')).demoLoad(name, opts));

demo
  .command('replay <scenario>')
  .description('stream a scenario over OTLP/HTTP into a running colony, so the incident unfolds live')
  .option('--speed <n>', 'times faster than real time (60 plays the hour in a minute)', '10')
  .option('--otlp <url>', 'OTLP/HTTP receiver', 'http://127.0.0.1:4318')
  .action(async (name, opts) => (await import('./commands/demo.js')).demoReplay(name, opts));

demo
  .command('generate [scenario...]')
  .description('rebuild the scenario files from the seeded generator (developers)')
  .option('--out <dir>', 'write here instead of demo-data/scenarios')
  .option('--check', 'only check that regenerating reproduces the committed files')
  .action(async (names, opts) => (await import('./commands/demo.js')).demoGenerate(names, opts));

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`coral: ${describeError(err)}\n`);
  if (!(err instanceof CoralError) && err instanceof Error && process.env.CORAL_DEBUG) process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
