import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { strictInput } from '../core/input.js';
import { colonyStatusOf } from './status.js';
import type { ToolContext } from './tools/types.js';

/** A demo scenario as the colony's MCP resources describe it (the caller lists them: the colony does not read demo files). */
export interface ScenarioStory {
  name: string;
  story: string;
  counts: { spans: number; exports: number };
}

export const STATUS_URI = 'coral://colony/status';
export const SERVICES_URI = 'coral://colony/services';
export const scenarioUri = (name: string) => `coral://demo/scenarios/${name}`;

const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] });

/**
 * Resources: the services seen, the colony's status and each demo scenario's story, so MCP clients
 * can show them or attach them to a conversation without a tool call.
 */
export function registerColonyResources(server: McpServer, ctx: ToolContext, scenarios: ScenarioStory[]): void {
  server.registerResource('services', SERVICES_URI, {
    title: 'Services in the colony',
    description: 'Every service seen, with its sources (ebpf, otlp) and when it was first and last seen.',
    mimeType: 'application/json',
  }, async (uri) => json(uri.href, (await colonyStatusOf(ctx.store)).services));

  server.registerResource('colony-status', STATUS_URI, {
    title: 'Colony status',
    description: 'The database, row counts per kind of telemetry, and the services seen.',
    mimeType: 'application/json',
  }, async (uri) => json(uri.href, await colonyStatusOf(ctx.store)));

  for (const s of scenarios) {
    server.registerResource(`scenario-${s.name}`, scenarioUri(s.name), {
      title: `Demo scenario ${s.name}`,
      description: s.story,
      mimeType: 'text/markdown',
    }, async (uri) => ({
      contents: [{
        uri: uri.href,
        mimeType: 'text/markdown',
        text: `# ${s.name}\n\n${s.story}\n\n${s.counts.spans} spans in ${s.counts.exports} OTLP exports over one hour.\n\n` +
          `Load it with \`coral demo load ${s.name}\`, or stream it live with \`coral demo replay ${s.name} --speed 60\`.\n`,
      }],
    }));
  }
}

/** The investigate prompt's text: where to start (the summary) and how to go on. */
export function investigateText(a: { symptom?: string; service?: string; time_range?: string; start?: string; end?: string }): string {
  const fixed = [a.start === undefined ? '' : `start "${a.start}"`, a.end === undefined ? '' : `end "${a.end}"`].filter(Boolean).join(', ');
  const range = fixed ? `${fixed}${a.time_range && !(a.start && a.end) ? `, time_range "${a.time_range}"` : ''}` : `time_range "${a.time_range ?? '30m'}"`;
  const focus = a.service ? ` The user suspects the service "${a.service}".` : '';
  return [
    `Investigate ${a.symptom ? `this problem: ${a.symptom}` : 'what is going wrong right now'}.${focus}`,
    `1. Start with coral_query_summary (${range}): it compares the window with the one before and names what stands out.${fixed ? ' Give every later call the same window.' : ''}`,
    '2. For the services it names, call coral_query_metrics (RED metrics by operation) and coral_query_traces (slow or failing traces, as span trees).',
    '3. Check coral_query_events for deploys, restarts or config changes near the onset, and coral_query_telemetry_logs for errors in the failing traces.',
    'Answer with the likely cause, the evidence (cite each tool result you used), and what to check next. Rows are tagged [eBPF] or [OTLP]: say which source shows what.',
  ].join('\n');
}

export function registerColonyPrompts(server: McpServer): void {
  const argsSchema = {
    symptom: z.string().optional().describe('what the user sees, e.g. "checkout is slow"'),
    service: z.string().optional().describe('a service to focus on'),
    time_range: z.string().optional().describe('the window to examine: 30m (default), 1h, 24h'),
    start: z.string().optional().describe('a fixed window\'s start, ISO 8601 (2025-12-02T13:05:00Z), instead of time_range'),
    end: z.string().optional().describe('a fixed window\'s end, ISO 8601; with start alone the window runs to now'),
  };
  const prompt = server.registerPrompt('investigate', {
    title: 'Investigate an incident',
    description: 'Start from the colony summary, then drill into metrics, traces, events and logs.',
    argsSchema,
  }, (args) => ({
    description: 'Investigate with the colony tools, starting with coral_query_summary',
    messages: [{ role: 'user', content: { type: 'text', text: investigateText(args) } }],
  }));
  // registerPrompt takes only a raw shape (made a stripping z.object); the strict one refuses a misspelt argument.
  prompt.argsSchema = strictInput(argsSchema);
}
