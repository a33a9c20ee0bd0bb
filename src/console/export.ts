import { terminalSafe } from '../core/terminal-text.js';
import { citedNumbers } from './citations.js';
import type { CallRecord, SessionRecord } from './session-record.js';

/** An excerpt is this many lines of a result, each at most this many characters. */
const EXCERPT_LINES = 8;
const EXCERPT_LINE_CHARS = 200;

/** Every time in an export: `2026-11-27 18:03:11 UTC`. */
export function exportTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A fence longer than any run of backticks in `text`, so a result holding ``` cannot end it early. */
function fenced(text: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, text, fence];
}

const args = (c: CallRecord) => JSON.stringify(c.args);
const outcome = (c: CallRecord) => (c.status === 'ok' ? `${c.durationMs} ms` : c.status);
const anchor = (c: CallRecord) => `call-${c.n}`;

/** The first lines of a result, each cut, and how many lines were left out (pure). */
export function excerpt(text: string): { lines: string[]; more: number } {
  const all = text.replace(/\n+$/, '').split('\n');
  const head = all.slice(0, EXCERPT_LINES);
  while (head.length > 1 && !head[head.length - 1].trim()) head.pop();
  const lines = head.map((l) => (l.length > EXCERPT_LINE_CHARS ? `${l.slice(0, EXCERPT_LINE_CHARS - 1)}…` : l));
  return { lines, more: all.length - head.length };
}

/**
 * The session as an incident note (pure): where it was asked, then each question with its answer
 * whole, each call the answer cites with its arguments and the first lines of what it returned, the
 * other calls of the turn in one line each, and the calls run by hand after it. Full results are
 * in `resultsFile` beside it, one heading per call number.
 */
export function exportMarkdown(r: SessionRecord, resultsFile: string): string {
  const title = r.turns[0]?.question.split('\n')[0] ?? 'Coral session';
  const out = [`# Incident note: ${title}`, '', `- Colony: ${r.colony} (${r.source})`, `- Model: ${r.model}`, `- Exported: ${exportTime(r.exported)}`, `- Full tool results: ${resultsFile}`, ''];
  if (r.turns.length === 0) out.push('No question was asked in this session.', '');
  r.turns.forEach((t, i) => {
    out.push(`## ${i + 1}. ${t.question}`, '');
    const where = t.colony !== r.colony || t.source !== r.source || t.model !== r.model ? ` · colony: ${t.colony} (${t.source}) · model: ${t.model}` : '';
    out.push(`Asked ${exportTime(t.asked)}${where}`, '');
    const heading = t.ended === 'answered' ? 'Answer' : t.ended === 'open' ? 'Answer (still being written)' : `Answer (${t.ended.replace('_', ' ')})`;
    out.push(`### ${heading}`, '', t.answer || '(no answer)', '');
    for (const w of t.warnings) out.push(`> ${w}`, '');
    for (const e of t.errors) out.push(`> **error:** ${e}`, '');
    const cited = citedNumbers(t.answer);
    const evidence = t.calls.filter((c) => cited.has(c.n));
    if (evidence.length) out.push('### Evidence', '');
    for (const c of evidence) {
      out.push(`**[${c.n}] ${c.tool}** \`${args(c)}\` · ${outcome(c)} · ${exportTime(c.started)}`, '');
      const x = excerpt(c.result);
      out.push(...fenced(x.lines.join('\n')));
      out.push(x.more > 0 ? `… ${x.more} more lines in [the full result](${resultsFile}#${anchor(c)})` : '', '');
    }
    const rest = t.calls.filter((c) => !cited.has(c.n));
    if (rest.length) out.push('### Other calls', '', ...rest.map((c) => `- [${c.n}] ${c.tool} \`${args(c)}\` · ${outcome(c)}`), '');
    if (t.said.length) out.push('### On the way', '', ...t.said.map((s) => `- ${s.replace(/\n+/g, ' ')}`), '');
    if (t.commands.length) out.push('### Looked at by hand afterwards', '', ...t.commands.map((c) => `- [${c.n}] ${c.tool} \`${args(c)}\` · ${outcome(c)} · ${exportTime(c.started)}`), '');
  });
  // Read with cat or pasted into an incident document: telemetry's control characters made visible.
  return terminalSafe(`${out.join('\n').replace(/\n{3,}/g, '\n\n')}\n`);
}

/** Every call's full result, under the numbers the note cites (pure). */
export function exportResults(r: SessionRecord): string {
  const out = ['# Tool results', '', `- Colony: ${r.colony} (${r.source})`, `- Exported: ${exportTime(r.exported)}`, ''];
  for (const c of r.turns.flatMap((t) => [...t.calls, ...t.commands])) {
    out.push(`<a id="${anchor(c)}"></a>`, `## [${c.n}] ${c.tool}`, '', `- Arguments: \`${args(c)}\``, `- Started: ${exportTime(c.started)} · ${outcome(c)}`, '');
    out.push(...fenced(c.result), '');
  }
  return terminalSafe(`${out.join('\n')}\n`);
}
