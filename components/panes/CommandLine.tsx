import { Box, Text } from 'ink';
import { LineInput } from '../input/LineInput.js';
import { useConsoleState } from '../state/context.js';
import { cut } from './format.js';

/** The `:` command line: Tab completes, Up/Down recall earlier lines, Enter runs, Esc closes (keys/router.ts edits it). */
export function CommandLine({ width }: { width: number }) {
  const s = useConsoleState();
  return (
    <Box flexDirection="column" width={width} height={2}>
      <Text color="gray">{cut(s.command.suggestions.length ? s.command.suggestions.slice(0, 8).join('  ') : 'Tab completes · ↑/↓ history · Enter runs · Esc closes', width)}</Text>
      <LineInput edit={{ value: s.command.text, cursor: s.command.cursor }} width={width} focus />
    </Box>
  );
}
