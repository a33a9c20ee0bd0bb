import { createColonyServer } from '../colony/server.js';
import type { Colony } from '../colony/store/colony.js';
import { createToolContext } from '../colony/tools/types.js';
import { connectHoneycomb, type HoneycombConnection } from '../honeycomb/connect.js';
import { createHoneycombServer } from '../honeycomb/tools.js';
import { defaultColonyDbPath } from '../core/paths.js';
import { systemPrompt } from './prompt.js';
import { type ColonyChoice, resolveColonyChoice } from './colony-choice.js';
import { honeycombOptions } from './honeycomb-options.js';
import { ToolHub } from './toolhub.js';
import { colonyMcpUrl, colonyTransport, httpTransport } from './mcp-http.js';
import { CoralError } from '../core/errors.js';
import { type McpServerConfig, resolveSecret } from './config.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** A transport for an MCP server from config: a child process over stdio, or Streamable HTTP. */
function configuredTransport(name: string, cfg: McpServerConfig): Transport {
  if ('command' in cfg) {
    // env values may be references (env://VAR), so a token handed to the server need not sit in the file.
    const env = Object.fromEntries(Object.entries(cfg.env ?? {}).map(([k, v]) => [k, /^(env|keyring):\/\//.test(v) ? resolveSecret(v) : v]));
    return new StdioClientTransport({ command: cfg.command, args: cfg.args ?? [], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'ignore' });
  }
  return httpTransport(new URL(cfg.url), cfg.token ? resolveSecret(cfg.token) : undefined);
}

export type { ColonyChoice };

export interface AgentSession {
  hub: ToolHub;
  system: string;
  /** Names the colony: demo:<scenario>, a file path, or a URL (for colonies.<id> config and the status bar). */
  colonyId: string;
  /** Resolves when the colony's data is ready (a demo loads in the background). */
  ready: Promise<void>;
  honeycomb: string;
  /** The colony's services when the session opened (a demo's, or the colony's own). */
  services: string[];
  /** Telemetry may still arrive: a running colony (URL) or a ClickHouse one, not a demo or a file this process holds. */
  live: boolean;
  close(): Promise<void>;
}

/** Connects the tool servers the agent uses: the colony (local, demo or remote) and Honeycomb. */
export async function openAgentSession(
  asked: ColonyChoice,
  o: { onProgress?: (fraction: number) => void; mcpServers?: Record<string, McpServerConfig>; /** "using the running colony" notices; stderr by default (a full-screen UI shows them itself). */ onNotice?: (line: string) => void } = {},
): Promise<AgentSession> {
  const choice = resolveColonyChoice(asked, { notify: o.onNotice });
  const closers: (() => Promise<void>)[] = [];
  const entries: Parameters<typeof ToolHub.connect>[0] = [];
  let colonyId: string;
  let ready: Promise<void> = Promise.resolve();
  let firstData: Promise<void> | undefined;
  let services: string[] = [];
  if (choice.colony) {
    colonyId = choice.colony;
    entries.push({ name: 'colony', transport: colonyTransport(choice.colony, choice.token).transport });
  } else {
    const store: Colony = choice.clickhouse && !choice.demo
      ? await (await import('./clickhouse.js')).openClickHouseColony(choice.clickhouse, { create: false })
      : await (await import('../colony/store/store.js')).ColonyStore.open({ path: choice.demo ? ':memory:' : (choice.db ?? defaultColonyDbPath()), memoryLimit: '4GB' });
    // A demo may still be loading: let it finish before the store closes under it.
    closers.push(async () => {
      await ready.catch(() => undefined);
      await store.close();
    });
    if (choice.demo) {
      colonyId = `demo:${choice.demo}`;
      const { loadScenario } = await import('../demo/load.js');
      const { SERVICES } = await import('../demo/world.js');
      services = SERVICES.map((s) => s.name);
      // The turn starts at once; tool calls wait for the data. Newest first: an early call (the
      // console's first look) is answered from the last minutes while the hour loads.
      let first: () => void = () => undefined;
      firstData = new Promise<void>((r) => (first = r));
      ready = loadScenario(store, choice.demo, {
        newestFirst: true,
        onProgress: (p) => {
          first();
          o.onProgress?.(p.exportsDone / p.exportsTotal);
        },
      }).then(() => undefined);
      ready.finally(first).catch(() => undefined);
    } else {
      colonyId = store.path;
      services = (await store.listServices()).map((s) => s.serviceName);
    }
    entries.push({ name: 'colony', server: createColonyServer(createToolContext(store)), ready, early: firstData });
  }
  const hc: HoneycombConnection = await connectHoneycomb(honeycombOptions());
  closers.push(() => hc.close());
  entries.push({ name: 'honeycomb', server: createHoneycombServer(hc.client) });
  const refused: string[] = [];
  for (const [name, cfg] of Object.entries(o.mcpServers ?? {})) {
    try {
      entries.push({ name, transport: configuredTransport(name, cfg), optional: true });
    } catch (err) {
      // Like an unreachable optional server: left out with a warning (e.g. a token over plain HTTP).
      refused.push(`MCP server ${name} is not used: ${(err as Error).message}`);
    }
  }
  let hub: ToolHub;
  try {
    hub = await ToolHub.connect(entries);
  } catch (err) {
    // Whatever was started (the local Honeycomb fake, a store) would keep the process alive.
    for (const c of closers) await c().catch(() => undefined);
    if (!choice.colony) throw err;
    const cause = ((err as Error).cause as Error | undefined)?.message ?? (err as Error).message;
    throw new CoralError(`Cannot reach the colony at ${colonyMcpUrl(choice.colony).href}: ${cause}.`, 'Start one with coral colony serve (it prints its URL), or fix --colony (and --token if it needs one).');
  }
  hub.warnings.push(...refused);
  closers.unshift(() => hub.close());
  if (choice.colony) {
    const r = await hub.call('services', 'coral_get_service_health', { time_range: '24h' }, { timeoutMs: 10_000 });
    services = ((r.structured?.services ?? []) as { serviceName: string }[]).map((s) => s.serviceName);
  }
  ready.catch(() => undefined);
  return {
    hub,
    system: systemPrompt({ now: new Date(), services }),
    colonyId,
    ready,
    honeycomb: hc.describe,
    services,
    live: Boolean(choice.colony || (choice.clickhouse && !choice.demo)),
    close: async () => {
      for (const c of closers) await c();
    },
  };
}
