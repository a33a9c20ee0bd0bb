/**
 * Whether to colour output on this stream: only on a terminal, never with NO_COLOR set (any value,
 * https://no-color.org) or TERM=dumb.
 */
export function useColor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** cli-table3 styles: colour only when `useColor` says so. */
export function tableStyle(): { head: string[]; border: string[] } {
  const color = useColor();
  return { head: color ? ['cyan'] : [], border: color ? ['grey'] : [] };
}
