import { createContext, useContext } from 'react';
import type { ConsoleActions } from '../keys/registry.js';
import type { ConsoleAction, ConsoleState } from './types.js';

/** One read-only state context and one actions context, as gemini-cli separates them. */
export const StateContext = createContext<ConsoleState | null>(null);
export const ActionsContext = createContext<{ dispatch: (a: ConsoleAction) => void; actions: ConsoleActions } | null>(null);

export function useConsoleState(): ConsoleState {
  const s = useContext(StateContext);
  if (!s) throw new Error('useConsoleState outside the console');
  return s;
}

export function useConsoleActions(): { dispatch: (a: ConsoleAction) => void; actions: ConsoleActions } {
  const a = useContext(ActionsContext);
  if (!a) throw new Error('useConsoleActions outside the console');
  return a;
}
