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
