import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import { useConsoleActions, useConsoleState } from '../state/context.js';
import { fit } from './format.js';

/** The `:` command line: Tab completes, Enter runs, Esc closes. */
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
    <Box flexDirection="column" width={width}>
      {s.command.suggestions.length > 0 && <Text color="gray" wrap="truncate">{fit(s.command.suggestions.slice(0, 8).join('  '), width)}</Text>}
      <Box>
        <TextInput
          value={s.command.text}
          onChange={(v) => dispatch({ type: 'command_text', text: v.replace(/\t/g, ''), suggestions: actions.complete(v) })}
          onSubmit={(v) => {
            dispatch({ type: 'overlay', overlay: 'none' });
            actions.runCommand(v);
          }}
        />
      </Box>
    </Box>
  );
}
