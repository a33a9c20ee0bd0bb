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

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`coral: ${describeError(err)}\n`);
  if (!(err instanceof CoralError) && err instanceof Error && process.env.CORAL_DEBUG) process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
