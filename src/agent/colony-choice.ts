import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CoralError } from '../core/errors.js';
import { defaultColonyDbPath } from '../core/paths.js';
import { findRunningColony } from '../colony/runtime-probe.js';
import { resolveDefaultColony, resolveSecret } from './config.js';
import { configuredClickHouseUrl } from './clickhouse.js';

/** Which colony a command reads, as its flags name it. */
export interface ColonyChoice {
  /** An in-memory colony with this demo scenario. */
  demo?: string;
  db?: string;
  /** A running colony's base URL (its /mcp). */
  colony?: string;
  token?: string;
  /** A ClickHouse colony: http(s)://[user@]host:8123[/database] or chdb:DIR. */
  clickhouse?: string;
}

export interface ResolveColonyOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where "using the running colony" notices go; stderr by default. */
  notify?: (line: string) => void;
}

const announced = new Set<string>();

function say(line: string, notify: ResolveColonyOptions['notify']): void {
  // ask resolves once for its settings and once for its session: say it once.
  if (announced.has(line)) return;
  announced.add(line);
  (notify ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
}

function origin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** A --colony URL that is this machine's default colony needs no --token: its token file is readable here. */
async function localToken(url: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const running = await findRunningColony(resolve(defaultColonyDbPath(env)), { instead: 'no token sent' });
  return running && origin(running.rt.url) !== null && origin(running.rt.url) === origin(url) ? running.token : undefined;
}

/**
 * The colony a reading command uses: a named one as named; else CORAL_COLONY or config `colony.url`;
 * else the database file (--db or the default), through the running `coral colony serve` that holds
 * it when there is one. A file that does not exist is an error: reads never create databases.
 *
 * A token goes only to the URL it was given with (README, "Tokens and where they go"): --token and CORAL_COLONY_TOKEN
 * with --colony, CORAL_COLONY or the user's own colony.url; a project file's colony.url (trusted)
 * with that file's colony.token only; a running colony found beside the file with its own token
 * file only, once it proved it holds that token (runtime-probe.ts).
 */
export async function resolveColonyChoice<T extends ColonyChoice>(choice: T, o: ResolveColonyOptions = {}): Promise<T> {
  if (choice.clickhouse) return choice;
  const env = o.env ?? process.env;
  if (choice.colony) return { ...choice, token: choice.token || env.CORAL_COLONY_TOKEN || (await localToken(choice.colony, env)) };
  if (choice.demo || choice.db === ':memory:') return choice;
  if (choice.db === undefined) {
    const fromEnv = env.CORAL_COLONY?.trim();
    const configured = fromEnv ? undefined : resolveDefaultColony({ env, cwd: o.cwd });
    const url = fromEnv || configured?.url;
    if (url) {
      say(`coral: using the default colony ${url} (${fromEnv ? 'CORAL_COLONY' : `colony.url in ${configured?.from}`})`, o.notify);
      const own = choice.token || env.CORAL_COLONY_TOKEN || undefined;
      const fromFile = configured?.token ? resolveSecret(configured.token, env) : undefined;
      if (configured?.layer === 'project' && own !== undefined && fromFile === undefined) {
        say('coral: --token / CORAL_COLONY_TOKEN is not sent to a colony.url from the project file; set colony.token there (env://VAR) if that colony needs one', o.notify);
      }
      const token = configured?.layer === 'project' ? fromFile : (own ?? fromFile);
      return { ...choice, colony: url, token };
    }
    const clickhouse = configuredClickHouseUrl(env);
    if (clickhouse) {
      say(`coral: using the ClickHouse colony ${clickhouse} (config clickhouse.url)`, o.notify);
      return { ...choice, clickhouse };
    }
  }
  const db = resolve(choice.db ?? defaultColonyDbPath(env));
  const running = await findRunningColony(db, { warn: (l) => say(l, o.notify) });
  if (running) {
    const { rt } = running;
    if (!rt.mcp) {
      throw new CoralError(`${db} is held by a running colony (pid ${rt.pid}) that serves no MCP endpoint (--no-mcp).`, 'Restart it without --no-mcp, or stop it to open the file directly.');
    }
    say(`coral: using the running colony at ${rt.url} (pid ${rt.pid}, serving ${db})`, o.notify);
    return { ...choice, db: undefined, colony: rt.url, token: running.token };
  }
  if (!existsSync(db)) {
    throw new CoralError(
      `No colony database at ${db}.`,
      choice.db !== undefined
        ? 'Check the path (reading never creates a database), or start a colony there with `coral colony serve --db FILE`.'
        : 'Start the colony with `coral colony serve` (it keeps running and receives OTLP), or load a scenario into it: `coral demo load payment-failure`.',
    );
  }
  return { ...choice, db };
}
