/** Small builders for OTLP/JSON, the encoding the demo files are stored in. */
export type Scalar = string | number | boolean;
export type KeyValue = { key: string; value: Record<string, unknown> };

export function attributes(obj: Record<string, Scalar | string[] | undefined>): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) out.push({ key, value: { arrayValue: { values: v.map((s) => ({ stringValue: s })) } } });
    else if (typeof v === 'string') out.push({ key, value: { stringValue: v } });
    else if (typeof v === 'boolean') out.push({ key, value: { boolValue: v } });
    else if (Number.isInteger(v)) out.push({ key, value: { intValue: String(v) } });
    else out.push({ key, value: { doubleValue: v } });
  }
  return out;
}

/** The scenario's clock: milliseconds since its start, as decimal epoch nanoseconds. */
export function nanos(baseNs: bigint, ms: number): string {
  return (baseNs + BigInt(Math.round(ms * 1e6))).toString();
}
