/**
 * Bounded answers: a tool never returns an unbounded dump. Lines are kept in order until the
 * budget is spent; the answer then says how much it left out and how to narrow the query.
 */
export function boundLines(lines: string[], maxChars: number, narrowHint: string): { text: string; truncated: boolean; omitted: number } {
  let used = 0;
  let kept = 0;
  for (const line of lines) {
    if (used + line.length + 1 > maxChars && kept > 0) break;
    used += line.length + 1;
    kept++;
  }
  const omitted = lines.length - kept;
  const body = lines.slice(0, kept);
  if (omitted > 0) body.push(`… ${omitted} more lines left out to stay within the response budget; ${narrowHint}`);
  return { text: body.join('\n'), truncated: omitted > 0, omitted };
}
