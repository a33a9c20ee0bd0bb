import type { TraceViewState } from '../state/types.js';
import { cursorTrace } from '../state/views.js';
import { visibleRows } from './rows.js';

/** What `y` copies (pure): the span under the cursor in an open trace, else the trace under the list cursor. */
export function copyTarget(t: TraceViewState): { kind: 'trace' | 'span'; id: string } | null {
  if (t.open !== null) {
    const trace = t.traces[t.open];
    const row = trace ? visibleRows(trace.roots, t.folded)[t.cursor] : undefined;
    return row ? { kind: 'span', id: row.node.spanId } : null;
  }
  const i = cursorTrace(t);
  return i === null ? null : { kind: 'trace', id: t.traces[i].traceId };
}

/**
 * OSC 52: the terminal puts the text on the system clipboard (xterm, iTerm2, kitty, WezTerm,
 * Windows Terminal; tmux with set-clipboard on), also over ssh, with no clipboard tool installed.
 */
export const osc52 = (text: string) => `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
