import type { EngineEvent } from './engine.js';

/** A console session as Markdown (pure): the conversation, then every tool call with its result. */
export function exportMarkdown(events: EngineEvent[], o: { colony: string; source: string; model: string }): string {
  const out = [`# Coral session`, '', `- colony: ${o.colony} (${o.source})`, `- model: ${o.model}`, `- exported: ${new Date().toISOString()}`, ''];
  const calls = new Map<string, { tool: string; args: Record<string, unknown> }>();
  let n = 0;
  let answer = '';
  for (const e of events) {
    if (e.type === 'notice' && e.error) out.push(`> **error:** ${e.text}`, '');
    if (e.type !== 'agent') continue;
    const ev = e.event;
    if (ev.type === 'user_message') {
      out.push(`## Question`, '', ev.text, '');
      n = 0;
    } else if (ev.type === 'tool_call_started') {
      calls.set(ev.id, { tool: ev.tool, args: ev.args });
    } else if (ev.type === 'tool_call_finished') {
      const c = calls.get(ev.id);
      out.push(`### [${++n}] ${ev.tool} ${JSON.stringify(c?.args ?? {})} (${ev.ok ? `${ev.durationMs} ms` : 'failed'})`, '', '```', ev.text, '```', '');
    } else if (ev.type === 'text_delta') {
      answer += ev.text;
    } else if (ev.type === 'message_end') {
      out.push('## Answer', '', ev.text.trim(), '');
      answer = '';
    } else if (ev.type === 'turn_end' && answer.trim()) {
      out.push('## Answer (interrupted)', '', answer.trim(), '');
      answer = '';
    }
  }
  return `${out.join('\n')}\n`;
}
