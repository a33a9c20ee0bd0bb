import { Box, Text } from 'ink';
import { cut } from '../text/width.js';
import { inputWindow, type LineEdit } from './line-edit.js';

/**
 * A one-line text field, drawn in terminal cells and scrolled sideways to keep the cursor in view
 * (a wrapped line would break the pane). Display only: keys are edited in the state (keys/router.ts).
 */
export function LineInput({ edit, focus, width, placeholder }: { edit: LineEdit; focus: boolean; width: number; placeholder?: string }) {
  if (!edit.value && placeholder) {
    if (!focus) return <Text color="gray">{cut(placeholder, width)}</Text>;
    return (
      <Text>
        <Text inverse>{placeholder[0]}</Text>
        <Text color="gray">{cut(placeholder.slice(1), width - 1)}</Text>
      </Text>
    );
  }
  const w = inputWindow(edit, width);
  return (
    <Text>
      {w.before}
      {focus ? <Text inverse>{w.at}</Text> : w.at}
      {w.after}
    </Text>
  );
}

/** The `/` filter line under a list, its cursor at the end of the filter being typed. */
export function FilterLine({ filter, width }: { filter: string; width: number }) {
  return (
    <Box>
      <Text color="cyan">/</Text>
      <LineInput edit={{ value: filter, cursor: filter.length }} width={width - 1} focus />
    </Box>
  );
}
