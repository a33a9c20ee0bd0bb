import type { Params } from '../db.js';
import type { TimeRange } from '../../../core/time.js';

/**
 * Builds a WHERE clause from optional conditions. Every user value becomes a bound parameter;
 * only fixed SQL fragments written in this repository are concatenated.
 */
export class Where {
  private readonly parts: string[] = [];
  readonly params: Params = {};
  private n = 0;

  /** Binds a value for use elsewhere in the statement; returns its placeholder. */
  bind(value: Params[string]): string {
    const name = `p${this.n++}`;
    this.params[name] = value;
    return `$${name}`;
  }

  /** Adds `fragment`, where each `?` is replaced by a fresh parameter bound to the next value. */
  add(fragment: string, ...values: Params[string][]): this {
    let i = 0;
    this.parts.push(fragment.replace(/\?/g, () => this.bind(values[i++])));
    return this;
  }

  /** Adds the condition only when `value` is given. */
  maybe<T extends Params[string]>(value: T | undefined | null, fragment: string): this {
    return value === undefined || value === null ? this : this.add(fragment, value);
  }

  /** `column` within the half-open window (from, to]. */
  range(column: string, r: TimeRange): this {
    return this.add(`${column} > ?::BIGINT AND ${column} <= ?::BIGINT`, r.fromNs, r.toNs);
  }

  sql(): string {
    return this.parts.length === 0 ? 'TRUE' : this.parts.join(' AND ');
  }
}

/** Escapes LIKE wildcards so that a search for `50%` finds the text "50%". */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
