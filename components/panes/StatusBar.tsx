import { Text } from 'ink';
import { hintsFor } from '../keys/registry.js';
import { fitHints } from './status-hints.js';
import { useConsoleState } from '../state/context.js';
import { percent } from '../state/views.js';
import { cut, fit, width as cells } from './format.js';

/** Colony, source, model, tokens, the last outcome worth saying, then the focused pane's keys. */
export function StatusBar({ width }: { width: number }) {
  const s = useConsoleState();
  const st = s.status;
  const loading = st.loading !== null ? ` · loading ${percent(st.loading)}` : '';
  // The embedded colony is implied by its demo source; tokens once there are some: room for the keys.
  const colony = st.colony === 'embedded' ? '' : `${st.colony} · `;
  const tokens = st.tokensIn + st.tokensOut > 0 ? ` · tokens ${st.tokensIn}/${st.tokensOut}` : '';
  // A running colony refreshes its views: say so, and how to stop it.
  const live = st.live === 'on' ? '● live (p pauses) · ' : st.live === 'paused' ? '‖ paused (p resumes) · ' : '';
  // The load's progress before the model's name: on a narrow terminal the name is what gets cut.
  const left = ` ${live}${colony}${st.source}${loading} · ${st.model}${tokens} │ `;
  // Whole hints only, the least useful dropped first (status-hints.ts).
  const hints = (room: number) => fitHints(hintsFor(s), room);
  if (!st.message) return <Text inverse>{fit(`${left}${hints(width - cells(left))}`, width)}</Text>;
  // The message comes first: it is what just happened.
  const msg = cut(` ${st.message} `, Math.max(10, Math.floor(width * 0.6)));
  const rest = Math.max(0, width - cells(msg));
  return (
    <Text>
      <Text inverse bold color={st.messageError ? 'red' : undefined}>{msg}</Text>
      <Text inverse>{fit(`│${left}${hints(rest - 1 - cells(left))}`, rest)}</Text>
    </Text>
  );
}
