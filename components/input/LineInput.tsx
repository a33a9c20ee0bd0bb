import { Text, useInput, useStdin } from 'ink';
import { useRef, useState } from 'react';
import { cut } from '../text/width.js';
import { applyKey, inputWindow, type LineEdit } from './line-edit.js';

/**
 * A one-line text field that measures in terminal cells and scrolls sideways (ink-text-input
 * wraps a long line and breaks the pane). The parent owns the value; the latest edit lives in a
 * ref, so keys that arrive before the next render build on each other (T4).
 */
export function LineInput({ value, onChange, onSubmit, focus, width, placeholder }: { value: string; onChange: (next: string, prev: string) => void; onSubmit: (value: string) => void; focus: boolean; width: number; placeholder?: string }) {
  const { isRawModeSupported } = useStdin();
  const edit = useRef<LineEdit>({ value, cursor: value.length });
  const emitted = useRef(value);
  const [, rerender] = useState(0);
  if (value !== emitted.current) {
    // Set from outside (history, a cleared draft): the cursor goes to the end.
    edit.current = { value, cursor: value.length };
    emitted.current = value;
  }
  useInput((input, key) => {
    const r = applyKey(edit.current, input, key);
    if (!r) return;
    const prev = edit.current.value;
    edit.current = r.edit;
    emitted.current = r.edit.value;
    if (r.edit.value !== prev) onChange(r.edit.value, prev);
    else rerender((n) => n + 1);
    if (r.submit) onSubmit(r.edit.value);
  }, { isActive: focus && isRawModeSupported === true });
  if (!value && placeholder && !focus) return <Text color="gray">{cut(placeholder, width)}</Text>;
  if (!value && placeholder) {
    return (
      <Text>
        <Text inverse>{placeholder[0]}</Text>
        <Text color="gray">{cut(placeholder.slice(1), width - 1)}</Text>
      </Text>
    );
  }
  const w = inputWindow(edit.current, width);
  return (
    <Text>
      {w.before}
      {focus ? <Text inverse>{w.at}</Text> : w.at}
      {w.after}
    </Text>
  );
}
