import { CoralError } from '../core/errors.js';
import { formatCount } from '../core/format.js';
import { progress } from '../core/progress.js';
import type { Colony } from '../colony/store/colony.js';
import { type ColonyStatus, colonyStatusOf } from '../colony/status.js';
import { STATUS_URI } from '../colony/resources.js';
import { resolveColonyChoice } from '../agent/colony-choice.js';
import { toolByName } from '../colony/tools/index.js';
import { runTool } from '../colony/tools/run.js';
import { type ToolOutput, createToolContext } from '../colony/tools/types.js';
import { type StoreOptions, openColonyFromOptions } from './colony-open.js';

export interface AccessOptions extends StoreOptions {
  /** A running colony's base URL (its /mcp endpoint is used). */
  colony?: string;
  token?: string;
  /** Load this demo scenario into an in-memory colony. */
  demo?: string;
}

/** One way to reach a colony's tools from the CLI, whether it is a file, a demo or a remote colony. */
export interface ColonyAccess {
  /** Where the answers come from: the database file, or the running colony's URL. */
  describe: string;
  remote: boolean;
  call(tool: string, args: Record<string, unknown>): Promise<ToolOutput>;
  status(): Promise<ColonyStatus>;
  close(): Promise<void>;
}

/** Opens the local store: the colony file, or an in-memory colony with a demo scenario loaded (a resolved choice). */
export async function openLocalStore(opts: AccessOptions): Promise<Colony> {
  if (!opts.demo) return openColonyFromOptions(opts);
  const { loadScenario } = await import('../demo/load.js');
  const store = await openColonyFromOptions({ ...opts, db: ':memory:' });
  const p = progress(`loading demo ${opts.demo}`);
  try {
    const r = await loadScenario(store, opts.demo, { onProgress: ({ exportsDone, exportsTotal }) => p.update(exportsDone / exportsTotal) });
    p.done(`${formatCount(r.accepted.spans)} spans ready`);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** The colony a command reads, resolved (a running colony holding the file is used over its API). */
export async function openColonyAccess(asked: AccessOptions): Promise<ColonyAccess> {
  return openResolvedAccess(await resolveColonyChoice(asked));
}

/**
 * A choice resolveColonyChoice already made, used as is: resolving twice would add a token the
 * first pass left out on purpose (CORAL_COLONY_TOKEN is not sent to a project's colony.url).
 */
export async function openResolvedAccess(opts: AccessOptions): Promise<ColonyAccess> {
  if (opts.colony) return openRemote(opts.colony, opts.token);
  const store = await openLocalStore(opts);
  const ctx = createToolContext(store);
  return {
    describe: store.path,
    remote: false,
    status: () => colonyStatusOf(store),
    call: (tool, args) => {
      const def = toolByName(tool);
      if (!def) throw new Error(`no tool ${tool}`);
      return runTool(def, ctx, args);
    },
    close: () => store.close(),
  };
}

async function openRemote(base: string, token?: string): Promise<ColonyAccess> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { colonyConnectError, colonyTransport } = await import('../agent/mcp-http.js');
  const { url, transport } = colonyTransport(base, token);
  const client = new Client({ name: 'coral-cli', version: '1' });
  try {
    await client.connect(transport);
  } catch (err) {
    throw colonyConnectError(url, err);
  }
  return {
    describe: url.href,
    remote: true,
    async status() {
      const res = await client.readResource({ uri: STATUS_URI });
      const first = res.contents[0];
      return JSON.parse(first && 'text' in first ? first.text : '{}') as ColonyStatus;
    },
    async call(tool, args) {
      const res = await client.callTool({ name: tool, arguments: args });
      const text = (res.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
      if (res.isError) throw new CoralError(text);
      return { text, structured: (res.structuredContent ?? {}) as Record<string, unknown> };
    },
    close: () => client.close(),
  };
}
