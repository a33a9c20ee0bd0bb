/**
 * Which columns a derived-column expression references. Honeycomb spells a column `$name`
 * (letters, digits, `_`, `.` and `-`), `$"name with spaces"` or `` $`raw name` ``; string literals
 * ("...", `...`) are skipped, so `"$not_a_column"` inside a literal is not a reference. A tokenizer,
 * not a regex: a regex cannot tell a literal's `$` from a reference's.
 */
const NAME_CHAR = /[A-Za-z0-9_.\-]/;

function readQuoted(expr: string, start: number, quote: string): { text: string; end: number } {
  let text = '';
  let i = start;
  while (i < expr.length) {
    const ch = expr[i];
    if (ch === '\\' && quote === '"' && i + 1 < expr.length) {
      text += expr[i + 1];
      i += 2;
      continue;
    }
    if (ch === quote) return { text, end: i + 1 };
    text += ch;
    i++;
  }
  // Unterminated: the rest of the expression belongs to it.
  return { text, end: expr.length };
}

export function referencedColumns(expression: string): string[] {
  const found: string[] = [];
  let i = 0;
  while (i < expression.length) {
    const ch = expression[i];
    if (ch === '"' || ch === '`' || ch === "'") {
      i = readQuoted(expression, i + 1, ch).end;
      continue;
    }
    if (ch === '$') {
      const next = expression[i + 1];
      if (next === '"' || next === '`') {
        const q = readQuoted(expression, i + 2, next);
        if (q.text) found.push(q.text);
        i = q.end;
        continue;
      }
      let j = i + 1;
      while (j < expression.length && NAME_CHAR.test(expression[j])) j++;
      if (j > i + 1) found.push(expression.slice(i + 1, j));
      i = j;
      continue;
    }
    i++;
  }
  return [...new Set(found)];
}

const BOOLEAN_FUNCS = new Set(['LT', 'LTE', 'GT', 'GTE', 'EQUALS', 'NOT', 'AND', 'OR', 'EXISTS', 'CONTAINS', 'STARTS_WITH', 'ENDS_WITH', 'REG_MATCH', 'IN', 'BOOL']);
const FLOAT_FUNCS = new Set(['SUM', 'SUB', 'MUL', 'DIV', 'MOD', 'MIN', 'MAX', 'LOG10', 'POW', 'FLOAT', 'EVENT_TIMESTAMP', 'INGEST_TIMESTAMP', 'UNIX_TIMESTAMP']);
const INTEGER_FUNCS = new Set(['INT', 'LENGTH', 'BUCKET']);

/** A derived column's type, from its outermost function (the API does not report one). */
export function derivedType(expression: string): string {
  const fn = /^\s*([A-Z_0-9]+)\s*\(/.exec(expression)?.[1] ?? '';
  if (BOOLEAN_FUNCS.has(fn)) return 'boolean';
  if (FLOAT_FUNCS.has(fn)) return 'float';
  if (INTEGER_FUNCS.has(fn)) return 'integer';
  return 'string';
}
