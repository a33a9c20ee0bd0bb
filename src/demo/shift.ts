/**
 * Moves every timestamp of an OTLP/JSON export by `deltaNs`: the fields whose names end in
 * `UnixNano`, wherever they sit. Works on the parsed JSON, so loading and replay share it.
 */
export function shiftTimestamps(value: unknown, deltaNs: bigint): void {
  if (Array.isArray(value)) {
    for (const v of value) shiftTimestamps(v, deltaNs);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    const v = obj[key];
    if (key.endsWith('UnixNano') && (typeof v === 'string' || typeof v === 'number')) {
      const ns = BigInt(v);
      if (ns > 0n) obj[key] = (ns + deltaNs).toString();
    } else if (typeof v === 'object' && v !== null) {
      shiftTimestamps(v, deltaNs);
    }
  }
}
