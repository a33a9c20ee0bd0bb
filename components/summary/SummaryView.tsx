import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useConsoleState } from '../state/context.js';
import { SUMMARY_TOOL } from '../state/reducer.js';
import { demoLoading, loadingNote, runningCall } from '../state/views.js';
import { cut } from '../text/width.js';
import { useStickyStart } from '../panes/sticky-window.js';
import { summaryLines } from './summary-lines.js';
import { FilterLine } from '../input/LineInput.js';

const SUMMARY_TOOLS = new Set([SUMMARY_TOOL]);

/** The Summary tab: where to look first, windowed to keep the selected service (and its signals) in sight. */
export function SummaryView({ width, height: full }: { width: number; height: number }) {
  const s = useConsoleState();
  const v = s.summary;
  // The `/` line takes the last row while a service name is typed.
  const height = v.searching ? Math.max(1, full - 1) : full;
  const pending = runningCall(s.toolCalls, SUMMARY_TOOLS);
  const range = typeof pending?.args.time_range === 'string' ? pending.args.time_range : '30m';
  const waiting = pending
    ? `Working out where to look first: the last ${range} against the ${range} before…${s.status.loading !== null ? ` The demo loads newest first: this first look is from its newest minutes, the whole hour's replaces it.${loadingNote(s.status.loading)}` : ''}`
    : s.status.loading !== null
      ? `${demoLoading(s.status.loading)}: where to look first comes from its newest minutes, then from the whole hour.`
      : undefined;
  const lines = useMemo(() => summaryLines(v, width, waiting), [v, width, waiting]);
  const at = lines.findIndex((l) => l.service === v.cursor);
  // The selected row and the signal lines under it.
  let end = at;
  while (at >= 0 && end + 1 < lines.length && lines[end + 1].service === undefined && lines[end + 1].text.startsWith('      ')) end++;
  const fits = lines.length <= height;
  const room = fits ? height : Math.max(1, height - 1);
  // On the first service the tab shows from its top: the window and where to look first belong with it.
  const sticky = useStickyStart(lines.length, Math.max(0, end), room, `${width}x${height}`, at >= 0 && v.cursor > 0 ? at : 0);
  const start = fits ? 0 : sticky;
  const shown = lines.slice(start, start + room);
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        <Text key={start + i} color={l.color} bold={l.bold} inverse={l.service !== undefined && l.service === v.cursor}>{cut(l.text, width) || ' '}</Text>
      ))}
      {!fits && <Text color="gray">{cut(`lines ${start + 1}-${Math.min(lines.length, start + room)} of ${lines.length} · j/k moves · / finds a service`, width)}</Text>}
      {v.searching && <FilterLine filter={v.search ?? ''} width={width} />}
    </Box>
  );
}
