import { terminalSafe } from '../core/terminal-text.js';
import type { EngineEvent } from './engine-events.js';

interface Provenance {
  colony: string;
  source: string;
  model: string;
}

/**
 * A console session as Markdown (pure): each question with the colony and model it was asked of at
 * the time, what was said on the way, every tool call under its session number (the number the
 * answers cite and the tool-call pane shows) with its result (span trees included), and the answer.
 */
export function exportMarkdown(events: EngineEvent[], now: Provenance): string {
  const out = [`# Coral session`, '', `- colony now: ${now.colony} (${now.source})`, `- model now: ${now.model}`, `- exported: ${new Date().toISOString()}`, ''];
  // What was in force when each question was asked: the status events say, as they did on screen.
  const at: Partial<Provenance> = {};
  const calls = new Map<string, { seq: number | undefined; tool: string; args: Record<string, unknown> }>();
  let said = '';
  const flush = (heading: string) => {
    if (said.trim()) out.push(heading, '', said.trim(), '');
    said = '';
  };
  for (const e of events) {
    if (e.type === 'status') {
      for (const k of ['colony', 'source', 'model'] as const) if (e.patch[k] !== undefined) at[k] = e.patch[k];
      continue;
    }
    if (e.type === 'notice' && e.error) out.push(`> **error:** ${e.text}`, '');
    if (e.type !== 'agent') continue;
    const ev = e.event;
    if (ev.type === 'user_message') {
      out.push(`## Question`, '', ev.text, '', `- asked of: ${at.colony ?? now.colony} (${at.source ?? now.source}) · model: ${at.model ?? now.model}`, '');
    } else if (ev.type === 'tool_call_started') {
      // Words before a tool call are the model's reasoning on the way: kept, not dropped.
      flush('### On the way');
      calls.set(ev.id, { seq: e.seq, tool: ev.tool, args: ev.args });
    } else if (ev.type === 'tool_call_finished') {
      const c = calls.get(ev.id);
      const n = e.seq ?? c?.seq;
      out.push(`### ${n !== undefined ? `[${n}] ` : ''}${ev.tool} ${JSON.stringify(c?.args ?? {})} (${ev.ok ? `${ev.durationMs} ms` : /^cancel/i.test(ev.text) ? 'cancelled' : 'failed'})`, '', '```', ev.text, '```', '');
    } else if (ev.type === 'text_delta') {
      said += ev.text;
    } else if (ev.type === 'warning') {
      out.push(`> ${ev.message}`, '');
    } else if (ev.type === 'message_end') {
      said = '';
      out.push('## Answer', '', ev.text.trim(), '');
    } else if (ev.type === 'turn_end') {
      flush('## Answer (interrupted)');
    }
  }
  // Read with cat or pasted into an incident document: telemetry's control characters made visible.
  return terminalSafe(`${out.join('\n')}\n`);
}
