import { wrap } from './format.js';
import type { Line } from './ScrollLines.js';

/** What waits to run, after the conversation, dimmed: it is sent, not yet answered (pure). */
export function queuedLines(queued: readonly string[], cells: number): Line[] {
  return queued.flatMap((q) => wrap(`queued: ${q}`, cells).map((text) => ({ text, color: 'gray' })));
}
