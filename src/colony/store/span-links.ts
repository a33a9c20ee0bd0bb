/**
 * A span's links (a batch consumer's producers, a job's trigger) as both backends return them:
 * DuckDB keeps them as JSON, the exporter's ClickHouse table as the Links.TraceId/SpanId arrays.
 * A link without a trace id leads nowhere and is left out; its attributes are not read (the
 * exporter's maps keep no types, so the two backends would not agree on them).
 */
export interface SpanLink {
  traceId: string;
  /** Empty when the sender gave none. */
  spanId: string;
}

const HEX = /^[0-9a-f]+$/;

function link(traceId: unknown, spanId: unknown): SpanLink | null {
  const t = typeof traceId === 'string' ? traceId.toLowerCase() : '';
  if (!HEX.test(t) || /^0+$/.test(t)) return null;
  const s = typeof spanId === 'string' ? spanId.toLowerCase() : '';
  return { traceId: t, spanId: HEX.test(s) ? s : '' };
}

/** From the DuckDB `links` column (JSON array, or NULL for none). */
export function linksFromJson(json: string | null): SpanLink[] {
  if (json === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((l) => {
    if (l === null || typeof l !== 'object') return [];
    const x = link((l as Record<string, unknown>).traceId, (l as Record<string, unknown>).spanId);
    return x ? [x] : [];
  });
}

/** From the exporter's Links.TraceId and Links.SpanId arrays (same length, one link per index). */
export function linksFromColumns(traceIds: readonly string[] | undefined, spanIds: readonly string[] | undefined): SpanLink[] {
  return (traceIds ?? []).flatMap((t, i) => {
    const x = link(t, spanIds?.[i]);
    return x ? [x] : [];
  });
}
