import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import { useConsoleActions, useConsoleState } from '../state/context.js';
import { fit } from './format.js';

interface Col { column: string; dataset: string; type: string; similarity: number; last_written: string | null; derived_expression: string | null }
interface Ds { name: string; column_count: number; derived_column_count: number; last_written: string | null; is_stale: boolean; custom_columns: string[] }

/** Honeycomb column search results as a filterable table, or the environment summary. */
export function ColumnsView({ width, height }: { width: number; height: number }) {
  const s = useConsoleState();
  const { dispatch } = useConsoleActions();
  const c = s.columns;
  if (c.view === 'env') {
    const env = c.env as { environment: string; datasets: Ds[] } | null;
    if (!env) return <Text color="gray">{fit('No environment summary yet: run :env (e switches back to search results)', width)}</Text>;
    const rows = env.datasets.slice(c.cursor, c.cursor + height - 2);
    return (
      <Box flexDirection="column">
        <Text bold>{fit(`Environment ${env.environment} · ${env.datasets.length} datasets`, width)}</Text>
        {rows.map((d) => (
          <Text key={d.name} wrap="truncate" color={d.is_stale ? 'gray' : undefined}>
            {fit(`${d.name.padEnd(20)} ${String(d.column_count).padStart(5)} cols ${String(d.derived_column_count).padStart(3)} derived  ${(d.last_written ?? 'never').padEnd(16)} ${d.custom_columns.slice(0, 4).join(', ')}`, width)}
          </Text>
        ))}
      </Box>
    );
  }
  const search = c.search as { results: Col[]; related_derived_columns: Col[]; total_matches: number } | null;
  if (!search) return <Text color="gray">{fit('No column search yet: run :columns <query> (e: environment summary)', width)}</Text>;
  const all = search.results.filter((r) => !c.filter || `${r.column} ${r.dataset}`.toLowerCase().includes(c.filter.toLowerCase()));
  const cursor = Math.min(c.cursor, Math.max(0, all.length - 1));
  const room = Math.max(1, height - 4);
  const start = Math.max(0, Math.min(cursor - room + 1, all.length - room));
  const w = { col: Math.max(12, Math.floor(width * 0.32)), ds: Math.max(8, Math.floor(width * 0.16)) };
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">{fit(`${'column'.padEnd(w.col)} ${'dataset'.padEnd(w.ds)} type    score  last written     derived expression`, width)}</Text>
      {all.slice(start, start + room).map((r, i) => (
        <Text key={`${r.dataset}/${r.column}`} inverse={start + i === cursor} wrap="truncate">
          {fit(`${fit(r.column, w.col)} ${fit(r.dataset, w.ds)} ${fit(r.type, 7)} ${r.similarity.toFixed(2)}  ${fit(r.last_written ?? '', 16)} ${r.derived_expression ?? ''}`, width)}
        </Text>
      ))}
      <Text color="gray" wrap="truncate">{fit(`${all.length} of ${search.total_matches} matches${c.filter ? ` matching "${c.filter}"` : ''}${search.related_derived_columns.length ? ` · related derived: ${search.related_derived_columns.map((d) => d.column).join(', ')}` : ''}`, width)}</Text>
      {c.filtering && (
        <Box>
          <Text color="cyan">/</Text>
          <TextInput value={c.filter} onChange={(v) => dispatch({ type: 'columns_filter', text: v })} onSubmit={(v) => dispatch({ type: 'columns_filter', text: v, done: true })} />
        </Box>
      )}
    </Box>
  );
}
