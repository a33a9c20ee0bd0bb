import type { ConsoleState, Pane } from '../state/types.js';

/**
 * Where the panes are (pure): the chat over the tool calls on the left, the view on the right (or
 * the view alone, zoomed), the status bar on the last row. The App draws this; a mouse report is
 * placed with it.
 */
export function paneLayout(s: ConsoleState): { body: number; left: number; right: number; toolsHeight: number } {
  const body = s.rows - 1 - (s.overlay === 'command' ? 2 : 0);
  const left = Math.max(30, Math.floor(s.cols * 0.42));
  const right = Math.max(30, s.cols - left);
  // An opened tool call gets most of the left column while its pane has focus.
  const opened = s.expandedTool !== null && s.focus === 'tools';
  const toolsHeight = opened ? Math.max(8, Math.floor(body * 0.65)) : Math.max(5, Math.min(12, Math.floor(body * 0.35)));
  return { body, left, right, toolsHeight };
}

/** The pane under a cell (column x, row y from 0), or null: the status bar, the `:` line, the help. */
export function paneAt(s: ConsoleState, x: number, y: number): Pane | null {
  const l = paneLayout(s);
  if (s.overlay === 'help' || y < 0 || y >= l.body || x < 0 || x >= s.cols) return null;
  if (s.zoomed || x >= l.left) return 'detail';
  return y < l.body - l.toolsHeight ? 'chat' : 'tools';
}
