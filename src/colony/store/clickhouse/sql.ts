import type { TimeRange } from '../../../core/time.js';

/**
 * SQL text for ClickHouse with values inlined as literals (both clients take plain statements).
 * Every user value goes through `lit`; only fragments written in this repository are concatenated.
 */
export type Value = string | number | bigint | boolean | null;

export function lit(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return `toInt64(${v.toString()})`;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function list(values: readonly Value[]): string {
  return values.length === 0 ? '(NULL)' : `(${values.map(lit).join(', ')})`;
}

/** An epoch-nanosecond instant, comparable with DateTime64(9) columns (lets ClickHouse prune partitions). */
export function instant(ns: bigint): string {
  return `fromUnixTimestamp64Nano(${lit(ns)})`;
}

/** `column` (a DateTime64(9)) within the half-open window (from, to]. */
export function inRange(column: string, r: TimeRange): string {
  return `${column} > ${instant(r.fromNs)} AND ${column} <= ${instant(r.toNs)}`;
}

/** `column` (a DateTime64(9)) within any of the windows: each bounds a range ClickHouse can prune by. */
export function inAnyRange(column: string, ranges: readonly TimeRange[]): string {
  return ranges.map((r) => `(${inRange(column, r)})`).join(' OR ');
}

/**
 * The indexes of the windows an epoch-nanosecond expression falls in, for an ARRAY JOIN: one row per
 * window it belongs to (overlapping windows each count it, as separate queries would).
 */
export function windowsOf(ns: string, ranges: readonly TimeRange[]): string {
  return `arrayFilter((i, m) -> m, range(${ranges.length}), [${ranges.map((r) => `${ns} > ${lit(r.fromNs)} AND ${ns} <= ${lit(r.toNs)}`).join(', ')}])`;
}

/** Rows labelled with their window (column `w`), split into one list per window, in order. */
export function byWindow<T extends { w: number }>(rows: readonly T[], windows: number): Omit<T, 'w'>[][] {
  const out: Omit<T, 'w'>[][] = Array.from({ length: windows }, () => []);
  for (const { w, ...r } of rows) out[w].push(r);
  return out;
}

/** Conditions joined by AND; `?` placeholders take literal values in order. */
export class Conditions {
  private readonly parts: string[] = [];

  add(fragment: string, ...values: Value[]): this {
    let i = 0;
    this.parts.push(fragment.replace(/\?/g, () => lit(values[i++])));
    return this;
  }

  maybe(value: Value | undefined, fragment: string): this {
    return value === undefined || value === null ? this : this.add(fragment, value);
  }

  sql(): string {
    return this.parts.length === 0 ? 'true' : this.parts.map((p) => `(${p})`).join(' AND ');
  }
}

/** A LIKE pattern for a case-insensitive substring, wildcards escaped (ClickHouse escapes with a backslash). */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
