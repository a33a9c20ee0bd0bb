import { Box, Text } from 'ink';
import { FilterLine } from '../input/LineInput.js';
import { useConsoleState } from '../state/context.js';
import { fit } from './format.js';
import { type Column, cell, droppedNote, layoutTable } from './table.js';

interface Col { column: string; dataset: string; type: string; similarity: number; last_written: string | null; derived_expression: string | null }
interface Ds { name: string; column_count: number; derived_column_count: number; last_written: string | null; is_stale: boolean; custom_columns: string[]; app_columns?: string[] }

const COLUMN_COLUMNS: Column<Col>[] = [
  { title: 'column', cells: 16, priority: 0, flex: true, value: (r) => r.column },
  { title: 'dataset', cells: 12, priority: 0, value: (r) => r.dataset },
  { title: 'type', cells: 7, priority: 3, value: (r) => r.type },
  { title: 'score', cells: 5, priority: 2, align: 'right', value: (r) => r.similarity.toFixed(2) },
  { title: 'last written', cells: 16, priority: 4, value: (r) => r.last_written ?? '' },
  { title: 'derived expression', cells: 20, priority: 5, value: (r) => r.derived_expression ?? '' },
];

const DATASET_COLUMNS: Column<Ds>[] = [
  { title: 'dataset', cells: 16, priority: 0, flex: true, value: (d) => d.name },
  { title: 'cols', cells: 5, priority: 0, align: 'right', value: (d) => String(d.column_count) },
  { title: 'derived', cells: 7, priority: 3, align: 'right', value: (d) => String(d.derived_column_count) },
  { title: 'last written', cells: 16, priority: 2, value: (d) => d.last_written ?? 'never' },
  { title: 'app columns', cells: 24, priority: 4, value: (d) => (d.app_columns ?? d.custom_columns).slice(0, 4).join(', ') },
];

function TableRows<R>({ rows, columns, width, cursor, start, dim }: { rows: R[]; columns: Column<R>[]; width: number; cursor: number; start: number; dim?: (r: R) => boolean }) {
  const t = layoutTable(columns, width);
  const note = droppedNote(t.dropped, useConsoleState().zoomed);
  return (
    <>
      <Text bold>{fit(t.columns.map((c) => cell(c.title, c.width, c.align)).join(' '), width)}</Text>
      {rows.map((r, i) => (
        <Text key={start + i} inverse={start + i === cursor} color={dim?.(r) ? 'gray' : undefined}>{t.columns.map((c) => cell(c.value(r), c.width, c.align)).join(' ')}</Text>
      ))}
      {note && <Text color="gray">{fit(note, width)}</Text>}
    </>
  );
}

/** Honeycomb column search results as a filterable table, or the environment summary. */
export function ColumnsView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const c = s.columns;
  if (c.view === 'env') {
    const env = c.env as { environment: string; datasets: Ds[] } | null;
    if (!env) return <Text color="gray">{fit('No environment summary yet: run :env (e switches back to search results)', width)}</Text>;
    const start = Math.min(c.cursor, Math.max(0, env.datasets.length - 1));
    return (
      <Box flexDirection="column">
        <Text bold>{fit(`Environment ${env.environment} · ${env.datasets.length} datasets`, width)}</Text>
        <TableRows rows={env.datasets.slice(start, start + Math.max(1, height - 3))} columns={DATASET_COLUMNS} width={width} cursor={-1} start={start} dim={(d) => d.is_stale} />
      </Box>
    );
  }
  const search = c.search as { results: Col[]; related_derived_columns: Col[]; total_matches: number } | null;
  if (!search) return <Text color="gray">{fit('No column search yet: run :columns <query> (e: environment summary)', width)}</Text>;
  const all = search.results.filter((r) => !c.filter || `${r.column} ${r.dataset}`.toLowerCase().includes(c.filter.toLowerCase()));
  const cursor = Math.min(c.cursor, Math.max(0, all.length - 1));
  const room = Math.max(1, height - 5);
  const start = Math.max(0, Math.min(cursor - room + 1, all.length - room));
  return (
    <Box flexDirection="column">
      <TableRows rows={all.slice(start, start + room)} columns={COLUMN_COLUMNS} width={width} cursor={cursor} start={start} />
      <Text color="gray">{fit(all.length === 0 && c.filter ? `No columns match "${c.filter}" (Esc keeps the filter, / edits it)` : `${all.length} of ${search.total_matches} matches${c.filter ? ` matching "${c.filter}"` : ''}${search.related_derived_columns.length ? ` · related derived: ${search.related_derived_columns.map((d) => d.column).join(', ')}` : ''}`, width)}</Text>
      {c.filtering && <FilterLine filter={c.filter} width={width} />}
    </Box>
  );
}
