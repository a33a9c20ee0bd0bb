import type { AskWindow } from '../ask-window.js';
import type { Understanding } from './index.js';
import { resolveWindow } from './window.js';

/**
 * What the question names, resolved against the colony, for a model's system prompt (pure): the
 * services matched with what was typed, a route or operation, the window, and the names that are not
 * here, so a model neither guesses a misspelt name nor answers about a different service.
 * Empty when the question names nothing.
 */
export function resolvedBlock(u: Understanding, nowMs: number, flagWindow?: AskWindow): string {
  const lines: string[] = [];
  if (u.services.length > 0) lines.push(`- services: ${u.services.map((s) => (s.exact ? s.name : `${s.name} (typed "${s.typed}")`)).join(', ')}`);
  if (u.route) lines.push(`- route: ${u.route.method ? `${u.route.method} ` : ''}${u.route.path} (answer from the service that serves it)`);
  if (u.operation) lines.push(`- operation: ${u.operation}`);
  // A window from flags is stated by the loop's own instruction (windowInstruction); it wins over the words.
  if (flagWindow) lines.push(`- window: ${flagWindow.label} (from the flags; the question's time words, if any, are overridden)`);
  else if (u.window?.kind === 'anchor') lines.push(`- window: ${u.window.mode === 'around' ? 'before and after' : 'since'} the ${u.window.anchor} ("${u.window.words}"): find its time (coral_query_summary or coral_query_events), then use start/end`);
  else if (u.window) {
    const w = resolveWindow(u.window, nowMs);
    if (w) lines.push(`- window: ${w.window.label}; start ${w.window.start}, end ${w.window.end} (pass them as start/end${w.timeRange ? `, or time_range ${w.timeRange}` : ''})`);
  }
  if (u.absent.length > 0) lines.push(`- not in this colony: ${u.absent.join(', ')} (say so and list the services; never answer about a different service instead)`);
  for (const i of u.infra) lines.push(`- infrastructure: ${i.word} (${i.kind}); if no service by that name sends telemetry, say so and answer from the services that call it`);
  return lines.length > 0 ? ['Resolved from the question:', ...lines].join('\n') : '';
}
