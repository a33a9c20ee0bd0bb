/**
 * The window a question is about, resolved before the turn starts: from `--since/--from/--to` or from
 * the words of the question ("in the last 15 minutes", "since 13:05"). Tool calls carry it as
 * `start`/`end` (ISO 8601) beside `time_range`; the chat names it with `label`.
 */
export interface AskWindow {
  /** ISO 8601, inclusive. */
  start: string;
  /** ISO 8601, exclusive. */
  end: string;
  /** How the chat states it, e.g. "13:05-13:35 UTC (30 min), from --since 30m". */
  label: string;
}

/** The window arguments of a tool call: the turn's window when there is one, else `time_range` back from now. */
export function windowToolArgs(w: AskWindow | undefined, timeRange: string): { start: string; end: string } | { time_range: string } {
  return w ? { start: w.start, end: w.end } : { time_range: timeRange };
}
