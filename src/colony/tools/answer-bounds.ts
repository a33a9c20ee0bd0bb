/**
 * The last word on an answer's size, applied to every tool by the server: the tools bound their
 * line counts, but one line or one field can still carry a megabyte of telemetry (a 1 MiB attribute,
 * a huge log body). Text is cut to the response budget; structured output keeps its shape (strings
 * stay strings, so output schemas still validate) with long strings shortened until it fits.
 */

/** Structured output may be this many times the text budget (it repeats what the text summarises). */
export const STRUCTURED_BUDGET_FACTOR = 4;
const STRING_CAPS = [2000, 500, 120, 40];

export function boundText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = `\n… answer cut at ${maxChars} of ${text.length} characters to stay within the response budget; narrow the query (service, time_range, limit, filters).`;
  const room = Math.max(0, maxChars - note.length);
  const cut = text.lastIndexOf('\n', room);
  return `${text.slice(0, cut > room / 2 ? cut : room)}${note}`;
}

function shorten(v: unknown, cap: number): unknown {
  if (typeof v === 'string') return v.length > cap ? `${v.slice(0, cap)}… (${v.length - cap} more characters)` : v;
  if (Array.isArray(v)) return v.map((x) => shorten(x, cap));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x, cap)]));
  return v;
}

/** The structured answer within `maxChars` of JSON where long strings can make it so; `truncated` set when it changed. */
export function boundStructured<T extends Record<string, unknown>>(structured: T, maxChars: number): T {
  if (JSON.stringify(structured).length <= maxChars) return structured;
  let out = structured;
  for (const cap of STRING_CAPS) {
    out = shorten(structured, cap) as T;
    if (JSON.stringify(out).length <= maxChars) break;
  }
  return typeof out.truncated === 'boolean' ? { ...out, truncated: true } : out;
}
