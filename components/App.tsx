import { Box, Text, useApp, useInput, useStdin, useStdout } from 'ink';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { EngineEvent } from '../src/console/engine.js';
import type { ConsoleActions } from './keys/registry.js';
import { dispatcher, routeInput } from './keys/router.js';
import { routeMouse } from './keys/mouse-route.js';
import type { MouseEvent } from './screen/mouse.js';
import { fit } from './panes/format.js';
import { paneLayout } from './panes/layout.js';
import { ChatPane } from './panes/ChatPane.js';
import { CommandLine } from './panes/CommandLine.js';
import { DetailPane } from './panes/DetailPane.js';
import { HelpOverlay } from './panes/HelpOverlay.js';
import { StatusBar } from './panes/StatusBar.js';
import { ToolCallsPane } from './panes/ToolCallsPane.js';
import { ActionsContext, StateContext } from './state/context.js';
import { reducer } from './state/reducer.js';
import { terminalSafeDeep } from '../src/core/terminal-text.js';
import { MIN, tooSmall } from './state/size.js';
import type { ConsoleAction, ConsoleState } from './state/types.js';

/** What the UI needs from the engine: its events, and the actions keys and commands trigger. */
export interface EngineLike {
  subscribe(listener: (e: EngineEvent) => void): () => void;
  ask(question: string): Promise<void>;
  cancel(): void;
  runCommand(line: string): void;
  completions(line: string): string[];
  /** A service's metrics (quietly, into the Metrics tab) and its worst traces (shown). */
  openService?(service: string): void;
  /** A span's linked trace, shown in the trace view. */
  openTrace?(traceId: string): void;
  /** A service's breakdown (coral_query_breakdown), shown. */
  breakdownService?(service: string): void;
  /** A service's worst traces, shown in the trace list. */
  serviceTraces?(service: string): void;
  /** A further page of the trace list, or the list in another order (answered as a refresh with an offset). */
  moreTraces?(tool: string, args: Record<string, unknown>): void;
  /** Engines with a live colony: stop or restart its refresh. */
  setLivePaused?(paused: boolean): void;
  close(): Promise<void>;
}

function fromEngine(e: EngineEvent): ConsoleAction {
  switch (e.type) {
    case 'agent':
      return { type: 'agent', event: e.event, seq: e.seq, quiet: e.quiet, newest: e.newest };
    case 'refresh':
      return { type: 'refresh', tool: e.tool, structured: e.structured, args: e.args };
    case 'status':
      return { type: 'status', patch: e.patch };
    case 'notice':
      return { type: 'notice', text: e.text, error: e.error };
    case 'clear':
      return { type: 'clear_session' };
    case 'queue':
      return { type: 'queued', items: e.items };
    case 'help':
      return { type: 'overlay', overlay: 'help' };
    case 'chart':
      return { type: 'chart_open', service: e.service, signals: e.signals };
  }
}

/** The console: layout, state, and key routing through the one registry. Renders; never queries. */
export function App({ initial, engine, redraw, copy, mouse }: { initial: ConsoleState; engine: EngineLike; redraw?: () => void; copy?: (text: string) => void; mouse?: (listener: (e: MouseEvent) => void) => () => void }) {
  const [state, dispatch] = useReducer(reducer, initial);
  const { stdout } = useStdout();
  const { isRawModeSupported } = useStdin();
  const { exit } = useApp();
  const [now, setNow] = useState(Date.now());
  // useInput throws without raw mode (pipes, CI): every input hook is gated on it (T2).
  const interactive = isRawModeSupported === true;

  // Engine events come in bursts (a streamed answer, parallel tool calls): one render per burst.
  useEffect(() => {
    let queued: ConsoleAction[] = [];
    const flush = () => {
      const actions = queued;
      queued = [];
      dispatch(actions.length === 1 ? actions[0] : { type: 'batch', actions });
    };
    return engine.subscribe((e) => {
      // Telemetry, tool answers and model text are drawn, never acted on by the terminal (terminal-text.ts).
      if (queued.push(fromEngine(terminalSafeDeep(e))) === 1) setImmediate(flush);
    });
  }, [engine]);
  useEffect(() => {
    const onResize = () => dispatch({ type: 'resize', cols: stdout.columns, rows: stdout.rows });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  const running = state.toolCalls.some((c) => c.status === 'running');
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [running]);

  const actions: ConsoleActions = useMemo(() => ({
    submit: (q: string) => void engine.ask(q),
    cancel: () => engine.cancel(),
    runCommand: (line: string) => engine.runCommand(line),
    complete: (line: string) => engine.completions(line),
    quit: () => {
      void engine.close().finally(() => exit());
    },
    redraw: () => redraw?.(),
    openService: (service: string) => engine.openService?.(service),
    openTrace: (traceId: string) => engine.openTrace?.(traceId),
    breakdownService: (service: string) => engine.breakdownService?.(service),
    setLivePaused: (paused: boolean) => engine.setLivePaused?.(paused),
    serviceTraces: (service: string) => engine.serviceTraces?.(service),
    // Only an engine that reads pages: without one, the list is what the query gave.
    moreTraces: engine.moreTraces ? (tool: string, args: Record<string, unknown>) => engine.moreTraces?.(tool, args) : undefined,
    copy: (text: string) => copy?.(text),
  }), [engine, exit, redraw, copy]);

  // One input handler for the whole console (keys/router.ts); it reads the state every earlier
  // key left, not the last render's.
  const latest = useRef(state);
  latest.current = state;
  const route = useMemo(() => dispatcher(latest, dispatch), []);
  useInput((input, key) => routeInput(() => latest.current, input, key, { dispatch: route, actions }), { isActive: interactive });
  useEffect(() => mouse?.((e) => routeMouse(latest.current, e, { dispatch: route, actions })), [mouse, route, actions]);

  if (tooSmall(state)) {
    return <Text wrap="truncate">{fit(`too small: needs ${MIN.cols}x${MIN.rows}, have ${state.cols}x${state.rows} · q quits`, state.cols)}</Text>;
  }
  // The whole terminal: frames are drawn row by row at absolute positions (screen/terminal.ts).
  const height = state.rows;
  const { body, left, right, toolsHeight } = paneLayout(state);
  return (
    <StateContext.Provider value={state}>
      <ActionsContext.Provider value={{ dispatch, actions }}>
        <Box flexDirection="column" width={state.cols} height={height}>
          {state.overlay === 'help' ? (
            <HelpOverlay width={state.cols} height={body} />
          ) : state.zoomed ? (
            <DetailPane width={state.cols} height={body} focused={state.focus === 'detail'} />
          ) : (
            <Box height={body}>
              <Box flexDirection="column" width={left}>
                <ChatPane width={left} height={body - toolsHeight} focused={state.focus === 'chat' && state.overlay === 'none'} />
                <ToolCallsPane width={left} height={toolsHeight} focused={state.focus === 'tools'} now={now} />
              </Box>
              <DetailPane width={right} height={body} focused={state.focus === 'detail'} />
            </Box>
          )}
          {state.overlay === 'command' && <CommandLine width={state.cols} />}
          <StatusBar width={state.cols} />
        </Box>
      </ActionsContext.Provider>
    </StateContext.Provider>
  );
}
