import type { Colony } from '../colony/store/colony.js';
import type { HoneycombConnection } from '../honeycomb/connect.js';
import { defaultColonyDbPath } from '../core/paths.js';
import { type Nanos, nowNs, nsToMs } from '../core/time.js';
import { FIRST_LOOK_MINUTES } from '../demo/first-look.js';
import { type ColonyChoice, resolveColonyChoice } from './colony-choice.js';
import type { ToolHub } from './toolhub.js';
import { CoralError } from '../core/errors.js';
import { type McpServerConfig, isToolEnabled, resolveDisabledTools } from './config.js';

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
  /** The caller's first look is on screen: a demo load held after its newest minutes goes on (see `firstLook`). */
  firstLookShown(): void;
  close(): Promise<void>;
}

/** How long a demo load waits after its newest minutes for the caller's first look, at most (from its first data). */
const FIRST_LOOK_HOLD_MAX_MS = 10_000;

/** The MCP servers and clients, and the tools: imported once the colony is opening (see below). */
function toolModules() {
  return Promise.all([
    import('../colony/server.js'),
    import('../colony/tools/types.js'),
    import('../honeycomb/connect.js'),
    import('../honeycomb/tools.js'),
    import('./toolhub.js'),
    import('./mcp-http.js'),
    import('./configured-transport.js'),
    import('./honeycomb-options.js'),
    import('./prompt.js'),
  ]);
}

/**
 * Connects the tool servers the agent uses: the colony (local, demo or remote) and Honeycomb.
 * A local colony opens, and a demo starts loading, before the tool servers' code is imported: DuckDB
 * opens, and writes the demo's newest minutes, on its own threads while that code loads.
 */
export async function openAgentSession(
  asked: ColonyChoice,
  o: { onProgress?: (fraction: number) => void; mcpServers?: Record<string, McpServerConfig>; /** "using the running colony" notices; stderr by default (a full-screen UI shows them itself). */ onNotice?: (line: string) => void;
    /**
     * The caller shows a first look answered from a demo's newest minutes (early calls: the console):
     * the load waits after those minutes until firstLookShown(), so that the look has both cores.
     */
    firstLook?: boolean;
  } = {},
): Promise<AgentSession> {
  const choice = await resolveColonyChoice(asked, { notify: o.onNotice });
  const closers: (() => Promise<void>)[] = [];
  let colonyId: string;
  let ready: Promise<void> = Promise.resolve();
  let settled: Promise<void> = Promise.resolve();
  let firstData: Promise<void> | undefined;
  let shown: () => void = () => undefined;
  let services: string[] = [];
  let store: Colony | undefined;
  /**
   * A demo's clock stands still where its data ends (load time): "now" moving on would make every
   * service go silent in the tools' eyes and figures drift between two answers.
   */
  let demoEndNs: Nanos | undefined;
  // Imported meanwhile: reading these files overlaps with DuckDB's start.
  const tools = toolModules();
  if (choice.colony) {
    colonyId = choice.colony;
  } else {
    const stores = () => import('../colony/store/store.js');
    // Newest first: an early call (the console's first look) is answered from the last minutes while
    // the hour loads; the load's worker decodes them while DuckDB opens.
    let first: () => void = () => undefined;
    // The longest wait counts from the first data: a busy machine may take seconds to get there.
    let holdTimer: () => void = () => undefined;
    const hold = o.firstLook && choice.demo
      ? new Promise<void>((r) => {
        shown = r;
        holdTimer = () => {
          holdTimer = () => undefined;
          setTimeout(r, FIRST_LOOK_HOLD_MAX_MS).unref();
        };
      })
      : undefined;
    if (choice.demo) demoEndNs = nowNs();
    const demoLoad = choice.demo
      ? (await import('../demo/load.js')).startDemoLoad(choice.demo, {
        endAtNs: demoEndNs,
        newestFirst: true,
        holdAfterFirst: hold,
        holdAfterMinutes: FIRST_LOOK_MINUTES,
        onProgress: (p) => {
          first();
          holdTimer();
          o.onProgress?.(p.exportsDone / p.exportsTotal);
        },
      })
      : undefined;
    let demoStore: import('../colony/store/store.js').ColonyStore | undefined;
    try {
      demoStore = choice.demo ? await (await stores()).ColonyStore.open({ path: ':memory:', memoryLimit: '4GB', compact: true }) : undefined;
    } catch (err) {
      demoLoad?.cancel();
      throw err;
    }
    const opened: Colony = demoStore ?? (choice.clickhouse
      ? await (await import('./clickhouse.js')).openClickHouseColony(choice.clickhouse, { create: false })
      : await (await stores()).ColonyStore.open({ path: choice.db ?? defaultColonyDbPath(), memoryLimit: '4GB', readOnly: true }));
    store = opened;
    // A demo may still be loading, or compacting: let it finish before the store closes under it.
    closers.push(async () => {
      await settled.catch(() => undefined);
      await opened.close();
    });
    if (demoStore && demoLoad) {
      colonyId = `demo:${choice.demo}`;
      const { SERVICES } = await import('../demo/world.js');
      services = SERVICES.map((s) => s.name);
      // The turn starts at once; tool calls wait for the data (early ones for the first of it).
      firstData = new Promise<void>((r) => (first = r));
      ready = demoLoad.into(demoStore).then(() => undefined);
      ready.finally(first).catch(() => undefined);
      // Once loaded, the hour is compressed in the background (calls need not wait for it).
      settled = ready.then(() => demoStore.compact());
      settled.catch(() => undefined);
    } else {
      colonyId = opened.path;
      services = (await opened.listServices()).map((s) => s.serviceName);
    }
  }
  const [{ createColonyServer }, { createToolContext }, { connectHoneycomb }, { createHoneycombServer }, { ToolHub }, { colonyConnectError, colonyMcpUrl, colonyTransport }, { configuredTransport }, { honeycombOptions }, { systemPrompt }] = await tools;
  const entries: Parameters<typeof ToolHub.connect>[0] = [];
  if (choice.colony) entries.push({ name: 'colony', transport: colonyTransport(choice.colony, choice.token).transport });
  const disabledTools = resolveDisabledTools({ quiet: true });
  if (store) entries.push({ name: 'colony', server: createColonyServer(createToolContext(store, demoEndNs === undefined ? undefined : () => demoEndNs as Nanos), { disabledTools }), ready, early: firstData });
  const hc: HoneycombConnection = await connectHoneycomb(honeycombOptions());
  closers.push(() => hc.close());
  entries.push({ name: 'honeycomb', server: createHoneycombServer(hc.client, { disabledTools }) });
  const refused: string[] = [];
  for (const [name, cfg] of Object.entries(o.mcpServers ?? {})) {
    try {
      entries.push({ name, transport: configuredTransport(cfg), optional: true });
    } catch (err) {
      // Like an unreachable optional server: left out with a warning (e.g. a token over plain HTTP).
      refused.push(`MCP server ${name} is not used: ${(err as Error).message}`);
    }
  }
  let hub: ToolHub;
  try {
    hub = await ToolHub.connect(entries, { isEnabled: (tool) => isToolEnabled(tool, disabledTools) });
  } catch (err) {
    // Whatever was started (the local Honeycomb fake, a store) would keep the process alive.
    for (const c of closers) await c().catch(() => undefined);
    if (!choice.colony) throw err;
    throw colonyConnectError(colonyMcpUrl(choice.colony), err);
  }
  // What the colony file's open found (a crash's log, one cut short) is said where warnings are.
  hub.warnings.push(...refused, ...(store?.notes ?? []));
  closers.unshift(() => hub.close());
  if (choice.colony) {
    const r = await hub.call('services', 'coral_get_service_health', { time_range: '24h' }, { timeoutMs: 10_000 });
    services = ((r.structured?.services ?? []) as { serviceName: string }[]).map((s) => s.serviceName);
  }
  ready.catch(() => undefined);
  return {
    hub,
    system: systemPrompt({ now: demoEndNs === undefined ? new Date() : new Date(nsToMs(demoEndNs)), services }),
    colonyId,
    ready,
    honeycomb: hc.describe,
    services,
    live: Boolean(choice.colony || (choice.clickhouse && !choice.demo)),
    firstLookShown: () => shown(),
    close: async () => {
      for (const c of closers) await c();
    },
  };
}
