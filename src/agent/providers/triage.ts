import type { Message, ToolResult } from '../events.js';
import type { ModelChunk, ModelProvider, ModelRequest } from './types.js';

/**
 * Without a model: an automatic triage that calls the tools a good first pass would (summary, then
 * metrics and traces of the service that stands out most) and writes what they show. It runs in
 * the same loop as a model, so the console and --json treat it alike. Clearly labelled.
 */
interface StandOut {
  service: string;
  signals: string[];
}

export const TRIAGE_MODEL = 'triage:automatic';

function results(messages: Message[]): ToolResult[] {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return messages.slice(lastUser + 1).flatMap((m) => (m.role === 'tool' ? m.results : []));
}

function firstLine(text: string, prefix: string): string | undefined {
  return text.split('\n').find((l) => l.startsWith(prefix));
}

export class TriageProvider implements ModelProvider {
  readonly name = TRIAGE_MODEL;
  readonly cloud = false;

  async *generate(req: ModelRequest): AsyncIterable<ModelChunk> {
    const done = results(req.messages);
    // Ids unique in the conversation (the message count differs in every turn); no calls when the loop forbids them.
    const id = (n: number) => `triage-${req.messages.length}-${n}`;
    const mayCall = req.tools.length > 0 && req.toolChoice !== 'none';
    const summary = done.find((r) => r.name === 'coral_query_summary');
    if (!summary) {
      if (mayCall && req.tools.some((t) => t.name === 'coral_query_summary')) yield { type: 'tool_call', call: { id: id(1), name: 'coral_query_summary', args: {} } };
      else yield { type: 'text', text: 'Automatic triage (no model configured): the colony tools are not available, so there is nothing to triage.' };
      return;
    }
    const top = ((summary.structured?.standOut ?? []) as StandOut[])[0];
    const metrics = done.find((r) => r.name === 'coral_query_metrics');
    if (top && !metrics && mayCall) {
      yield { type: 'tool_call', call: { id: id(2), name: 'coral_query_metrics', args: { service: top.service, time_range: '30m' } } };
      yield { type: 'tool_call', call: { id: id(3), name: 'coral_query_traces', args: { service: top.service, time_range: '30m', max_traces: 3 } } };
      return;
    }
    const lines = ['Automatic triage (no model configured; these are the tools\' findings, not a diagnosis).', ''];
    if (!top) {
      lines.push('Finding: nothing stands out against the previous window [1].', '', 'Recommendation: configure a model (coral config, ai.ask.default_model) for a deeper look, or widen the time range.');
    } else {
      const others = ((summary.structured?.standOut ?? []) as StandOut[]).slice(1, 4).map((s) => s.service);
      lines.push(`Finding: ${top.service} stands out: ${top.signals.join('; ')} [1].${others.length ? ` Also changed: ${others.join(', ')}.` : ''}`);
      const analysis = metrics ? firstLine(metrics.text, 'Analysis:') : undefined;
      const traces = done.find((r) => r.name === 'coral_query_traces');
      const trace = traces ? firstLine(traces.text, 'Trace:') : undefined;
      lines.push('', `Root cause (most likely): ${top.service}.${analysis ? ` ${analysis.replace(/^Analysis: /, '')} [2]` : ''}${trace ? ` Example: ${trace.replace(/ ·.*$/, '')} [3]` : ''}`);
      const lookFirst = summary.structured?.lookFirst as string | undefined;
      lines.push('', `Recommendation: ${lookFirst ? lookFirst.replace(/^Where to look first: /, 'look at ') : `look at ${top.service} first`}`);
    }
    for (const l of lines) yield { type: 'text', text: `${l}\n` };
  }
}
