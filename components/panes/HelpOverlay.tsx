import { Box } from 'ink';
import { COMMANDS } from '../../src/console/commands.js';
import { BINDINGS, SCOPE_TITLES, label } from '../keys/registry.js';
import { padEnd } from './format.js';
import { type Line, ScrollLines } from './ScrollLines.js';

/** Every key binding, grouped by scope, straight from the registry, and the `:` commands. */
export function helpLines(): Line[] {
  const lines: Line[] = [
    { text: 'In the chat input letters are typed; ? and : act on an empty input.', color: 'gray' },
    { text: 'Esc leaves the input for the last pane, where q quits.', color: 'gray' },
    { text: 'Ctrl-C cancels a turn (twice when idle: quit). Enter while busy queues.', color: 'gray' },
  ];
  for (const [scope, title] of SCOPE_TITLES) {
    const b = BINDINGS.filter((x) => x.scope === scope);
    if (b.length === 0) continue;
    lines.push({ text: title, bold: true });
    for (const x of b) lines.push({ text: `  ${padEnd(x.keys.map(label).join(' / '), 22)} ${x.description}` });
  }
  lines.push({ text: 'Commands (:)', bold: true });
  for (const c of COMMANDS) lines.push({ text: `  ${padEnd(c.usage, 44)} ${c.description}` });
  lines.push({ text: '' }, { text: 'Esc or ? closes this help.' });
  return lines;
}

export function HelpOverlay({ width, height }: { width: number; height: number }) {
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="double" borderColor="cyan" paddingX={1}>
      <ScrollLines lines={helpLines()} width={width - 4} height={height - 2} target="help" keys="j/k PgUp/PgDn g/G" />
    </Box>
  );
}
