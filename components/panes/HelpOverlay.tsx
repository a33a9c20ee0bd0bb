import { Box, Text } from 'ink';
import { COMMANDS } from '../../src/console/commands.js';
import { BINDINGS, type Scope, label } from '../keys/registry.js';
import { fit } from './format.js';

const SCOPES: [Scope, string][] = [['global', 'Everywhere'], ['chat', 'Chat'], ['tools', 'Tool calls'], ['traces', 'Trace view'], ['columns', 'Columns'], ['metrics', 'Metrics']];

/** Every key binding, grouped by scope, straight from the registry, and the `:` commands. */
export function HelpOverlay({ width, height }: { width: number; height: number }) {
  const lines: { text: string; bold?: boolean }[] = [];
  for (const [scope, title] of SCOPES) {
    const b = BINDINGS.filter((x) => x.scope === scope);
    if (b.length === 0) continue;
    lines.push({ text: title, bold: true });
    for (const x of b) lines.push({ text: `  ${x.keys.map(label).join(' / ').padEnd(22)} ${x.description}` });
  }
  lines.push({ text: 'Commands (:)', bold: true });
  for (const c of COMMANDS) lines.push({ text: `  ${c.usage.padEnd(44)} ${c.description}` });
  lines.push({ text: '' }, { text: 'Esc or ? closes this help.' });
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="double" borderColor="cyan" paddingX={1}>
      {lines.slice(0, height - 2).map((l, i) => <Text key={i} bold={l.bold} wrap="truncate">{fit(l.text, width - 4)}</Text>)}
    </Box>
  );
}
