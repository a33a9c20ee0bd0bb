import { Box, Text, useInput } from 'ink';
import { LineInput } from '../input/LineInput.js';
import { useConsoleActions, useConsoleState } from '../state/context.js';
import { cut } from './format.js';

/** The `:` command line: Tab completes, Enter runs, Esc closes (and Backspace on an empty line). */
export function CommandLine({ width }: { width: number }) {
  const s = useConsoleState();
  const { actions, dispatch } = useConsoleActions();
  useInput((_input, key) => {
    if (key.tab) {
      const first = s.command.suggestions[0];
      if (first) dispatch({ type: 'command_text', text: `${first} `, suggestions: actions.complete(`${first} `) });
    }
  });
  return (
    <Box flexDirection="column" width={width} height={2}>
      <Text color="gray">{cut(s.command.suggestions.length ? s.command.suggestions.slice(0, 8).join('  ') : 'Tab completes · Enter runs · Esc closes', width)}</Text>
      <LineInput
        value={s.command.text}
        width={width}
        focus
        onChange={(v) => {
          if (v === '') return dispatch({ type: 'overlay', overlay: 'none' });
          dispatch({ type: 'command_text', text: v.startsWith(':') ? v : `:${v}`, suggestions: actions.complete(v) });
        }}
        onSubmit={(v) => {
          dispatch({ type: 'overlay', overlay: 'none' });
          actions.runCommand(v);
        }}
      />
    </Box>
  );
}
