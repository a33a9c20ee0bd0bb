import { Text } from 'ink';
import { hintsFor } from '../keys/registry.js';
import { useConsoleState } from '../state/context.js';
import { fit } from './format.js';

/** Colony, source, model, tokens, then the focused pane's keys from the registry. */
export function StatusBar({ width }: { width: number }) {
  const s = useConsoleState();
  const st = s.status;
  const loading = st.loading !== null ? ` · loading ${Math.round(st.loading * 100)}%` : '';
  const left = ` ${st.colony} · ${st.source} · ${st.model} · tokens ${st.tokensIn}/${st.tokensOut}${loading} │ `;
  const hints = hintsFor(s).map((h) => `${h.keys} ${h.description}`).join(' · ');
  return (
    <Text inverse>{fit(`${left}${hints}`, width)}</Text>
  );
}
