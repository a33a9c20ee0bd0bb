import { paneAt } from '../panes/layout.js';
import type { MouseEvent } from '../screen/mouse.js';
import type { ConsoleAction, ConsoleState } from '../state/types.js';
import { type ConsoleActions, resolveKey } from './registry.js';

/** Lines a wheel notch moves: what terminals scroll a page of text by. */
export const WHEEL_LINES = 3;

/**
 * A mouse event, as keys would act: a click focuses the pane under it; the wheel moves the pane
 * under the pointer (focused or not) as ↑/↓ would there, the chat's history scrolling instead.
 */
export function routeMouse(s: ConsoleState, e: MouseEvent, c: { dispatch(a: ConsoleAction): ConsoleState; actions: ConsoleActions }): void {
  if (s.overlay === 'command') return;
  if (s.overlay === 'help') {
    if (e.kind !== 'click') c.dispatch({ type: 'scroll', target: 'help', delta: e.kind === 'wheel-up' ? -WHEEL_LINES : WHEEL_LINES });
    return;
  }
  const pane = paneAt(s, e.x, e.y);
  if (!pane) return;
  if (e.kind === 'click') return void (pane !== s.focus && c.dispatch({ type: 'focus', pane }));
  if (pane === 'chat') return void c.dispatch({ type: 'scroll', target: 'chat', delta: e.kind === 'wheel-up' ? WHEEL_LINES : -WHEEL_LINES });
  // While a filter or search is typed, its field has the keys: the wheel does not move the list under it.
  if (s.trace.filtering || s.trace.searching || s.summary.searching || s.columns.filtering) return;
  const key = e.kind === 'wheel-up' ? 'up' : 'down';
  let at: ConsoleState = { ...s, focus: pane };
  const binding = resolveKey(at, key);
  if (!binding || binding.scope === 'global') return;
  for (let i = 0; i < WHEEL_LINES; i++) {
    binding.run({ state: at, dispatch: (a) => void (at = { ...c.dispatch(a), focus: pane }), actions: c.actions, page: Math.max(1, s.rows - 8) }, key);
  }
}
