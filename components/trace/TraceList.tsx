import { Box, Text } from 'ink';
import { FilterLine } from '../input/LineInput.js';
import { fit, plural } from '../panes/format.js';
import { cell } from '../panes/table.js';
import type { TraceViewState } from '../state/types.js';
import { ORDER_DESCRIPTIONS } from '../../src/colony/unified/trace-digest.js';
import { listedTraces, serviceSegments, traceTable } from './list-view.js';
import { windowStart } from './rows.js';

/**
 * The trace list: one row per trace in terminal cells (start, root `service: operation`, duration,
 * spans, errors, services touched with the failing ones first, source mix), sorted with s and
 * filtered with /; the header says the order, the filter and how many traces it leaves.
 */
export function TraceList({ view, width, height }: { view: TraceViewState; width: number; height: number }) {
  const listed = listedTraces(view.traces, view.sort, view.filter);
  const t = traceTable(view.traces, width);
  const rowsHeight = Math.max(1, height - 2 - (view.filtering ? 1 : 0));
  const cursor = Math.min(view.listCursor, Math.max(0, listed.length - 1));
  const start = windowStart(listed.length, cursor, rowsHeight);
  const q = view.query;
  // How much of the colony's list is read ("50 of 1234 traces"), and whether more is on its way.
  const all = q && q.matched > view.traces.length ? q.matched : null;
  const more = q?.loading ? ' · loading more…' : '';
  const count = view.filter
    ? `${listed.length} of ${plural(view.traces.length, 'trace')} match "${view.filter}"${all ? ` (${all} in all)` : ''}${view.filtering ? '' : ' (Esc clears)'}`
    : all ? `${view.traces.length} of ${all} traces` : plural(view.traces.length, 'trace');
  return (
    <Box flexDirection="column">
      <Text color={view.filter ? 'cyan' : 'gray'}>{fit(`${count} · ${ORDER_DESCRIPTIONS[view.sort]} (s)${more} · / filters · Enter opens`, width)}</Text>
      <Text bold>{fit(t.columns.map((c) => cell(c.title, c.width, c.align)).join(' '), width)}</Text>
      {listed.length === 0 && <Text color="gray">{fit(all ? `None of the ${view.traces.length} read matches "${view.filter}": j reads more` : `No trace matches "${view.filter}" (service:x op:x status:error dur>500ms key:value, words)`, width)}</Text>}
      {listed.slice(start, start + rowsHeight).map((idx, i) => {
        const tr = view.traces[idx];
        return (
          <Text key={tr.traceId} inverse={start + i === cursor}>
            {t.columns.map((c, j) => {
              const sep = j ? ' ' : '';
              if (c.title === 'services') {
                return (
                  <Text key={c.title}>
                    {sep}
                    {serviceSegments(tr, c.width).map((g, k) => <Text key={k} color={g.color}>{g.text}</Text>)}
                  </Text>
                );
              }
              return <Text key={c.title} color={c.color?.(tr)}>{`${sep}${cell(c.value(tr), c.width, c.align)}`}</Text>;
            })}
          </Text>
        );
      })}
      {view.filtering && <FilterLine filter={view.filter} width={width} />}
    </Box>
  );
}
