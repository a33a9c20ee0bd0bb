/**
 * OTLP/JSON items counted without parsing (export-items.ts says what counts): a scan over the bytes
 * that follows the envelope (resources, scopes, items; a span's events and links; a metric's data
 * points) and steps over every other value by its brackets and quotes. JSON.parse would build the
 * whole tree first, and that tree is the memory the count is there to refuse: `{}` spans parse
 * into ~20 bytes of objects per byte of body.
 */
import { OtlpDecodeError, type Signal } from './model.js';

const ENVELOPE: Record<Signal, [resources: string, scopes: string, items: string]> = {
  traces: ['resourceSpans', 'scopeSpans', 'spans'],
  metrics: ['resourceMetrics', 'scopeMetrics', 'metrics'],
  logs: ['resourceLogs', 'scopeLogs', 'logRecords'],
};
const SPAN_LISTS = ['events', 'links'];
const METRIC_KINDS = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'];
const DATA_POINTS = ['dataPoints'];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export function countJsonItems(signal: Signal, body: Buffer): number {
  const [resources, scopes, items] = ENVELOPE[signal];
  const s = new JsonScan(body);
  const one = () => {
    s.skip();
    return 1;
  };
  const item = signal === 'traces' ? () => {
    let n = 1;
    s.object(SPAN_LISTS, () => (n += s.list(one)));
    return n;
  } : signal === 'metrics' ? () => {
    let n = 0;
    s.object(METRIC_KINDS, () => s.object(DATA_POINTS, () => (n += s.list(one))));
    return Math.max(n, 1);
  } : one;
  const scope = () => {
    let n = 0;
    s.object([items], () => (n += s.list(item)));
    return Math.max(n, 1);
  };
  const resource = () => {
    let n = 0;
    s.object([scopes], () => (n += s.list(scope)));
    return Math.max(n, 1);
  };
  let n = 0;
  s.object([resources], () => (n += s.list(resource)));
  return n;
}

/**
 * A cursor over JSON bytes. Only what the count walks through is checked (a key, its colon, the
 * commas and brackets around); the decoder's JSON.parse judges the rest. UTF-8 never puts a byte
 * below 0x80 inside a multi-byte character, so quotes and brackets can be found byte by byte.
 */
class JsonScan {
  pos = 0;
  /** The contents of the string last read, [strFrom, strTo), and whether it had an escape. */
  private strFrom = 0;
  private strTo = 0;
  private escaped = false;

  constructor(private readonly buf: Buffer) {}

  private fail(what: string): never {
    throw new OtlpDecodeError(`malformed JSON: ${what} at byte ${this.pos}`);
  }

  /** The next byte that is not white space (not consumed), or -1 at the end. */
  private peek(): number {
    const buf = this.buf;
    while (this.pos < buf.length) {
      const b = buf[this.pos];
      if (!isSpace(b)) return b;
      this.pos++;
    }
    return -1;
  }

  /**
   * The members of the object that comes next: `visit(i)` for a key that is `names[i]`, which must
   * read the value; others are skipped. A value that is not an object is skipped whole: the
   * decoder refuses it or reads it as empty, as it does for null.
   */
  object(names: readonly string[], visit: (which: number) => void): void {
    if (this.peek() !== LBRACE) {
      this.skip();
      return;
    }
    this.pos++;
    let c = this.peek();
    if (c === RBRACE) {
      this.pos++;
      return;
    }
    for (;;) {
      if (c !== QUOTE) this.fail('expected a key in double quotes');
      this.string();
      const which = this.keyIndex(names);
      if (this.peek() !== COLON) this.fail('expected ":" after a key');
      this.pos++;
      if (which < 0) this.skip();
      else visit(which);
      c = this.peek();
      if (c === COMMA) {
        this.pos++;
        c = this.peek();
      } else if (c === RBRACE) {
        this.pos++;
        return;
      } else this.fail('expected "," or "}" in an object');
    }
  }

  /** The sum of `item()` over the array that comes next (each must read its element); 0 for a value that is not an array. */
  list(item: () => number): number {
    if (this.peek() !== LBRACKET) {
      this.skip();
      return 0;
    }
    this.pos++;
    let n = 0;
    if (this.peek() === RBRACKET) {
      this.pos++;
      return 0;
    }
    for (;;) {
      n += item();
      const c = this.peek();
      if (c === COMMA) this.pos++;
      else if (c === RBRACKET) {
        this.pos++;
        return n;
      } else this.fail('expected "," or "]" in an array');
    }
  }

  /** Past the value that comes next, whatever it is; containers by counting brackets outside strings, without recursion. */
  skip(): void {
    const c = this.peek();
    if (c === QUOTE) {
      this.string();
      return;
    }
    if (c === LBRACE || c === LBRACKET) {
      const buf = this.buf;
      let depth = 0;
      while (this.pos < buf.length) {
        const b = buf[this.pos];
        if (b === QUOTE) {
          this.string();
          continue;
        }
        this.pos++;
        if (b === LBRACE || b === LBRACKET) depth++;
        else if ((b === RBRACE || b === RBRACKET) && --depth === 0) return;
      }
      this.fail('an object or array is not closed');
    }
    if (c === -1) this.fail('the body ends where a value was expected');
    // A number, true, false or null: up to the next delimiter (the decoder checks its spelling).
    const start = this.pos;
    const buf = this.buf;
    while (this.pos < buf.length) {
      const b = buf[this.pos];
      if (b === COMMA || b === RBRACE || b === RBRACKET || b === COLON || b === QUOTE || b === LBRACE || b === LBRACKET || isSpace(b)) break;
      this.pos++;
    }
    if (this.pos === start) this.fail(`unexpected "${String.fromCharCode(c)}"`);
  }

  /** Past the string whose opening quote is next; a byte loop (most strings are short: one native indexOf each cost more). */
  private string(): void {
    const buf = this.buf;
    let p = this.pos + 1;
    this.strFrom = p;
    this.escaped = false;
    while (p < buf.length) {
      const b = buf[p];
      if (b === QUOTE) {
        this.strTo = p;
        this.pos = p + 1;
        return;
      }
      if (b === BACKSLASH) {
        this.escaped = true;
        p += 2;
      } else p++;
    }
    this.fail('a string is not closed');
  }

  /** Which of `names` the string last read is (-1: none), compared byte by byte; one with escapes is unescaped first. */
  private keyIndex(names: readonly string[]): number {
    const buf = this.buf;
    const from = this.strFrom;
    const length = this.strTo - from;
    if (this.escaped) {
      let key: unknown;
      try {
        key = JSON.parse(buf.toString('utf8', from - 1, this.strTo + 1));
      } catch (err) {
        this.fail(`a key with a bad escape (${(err as Error).message})`);
      }
      return names.indexOf(key as string);
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name.length !== length) continue;
      let k = 0;
      while (k < length && buf[from + k] === name.charCodeAt(k)) k++;
      if (k === length) return i;
    }
    return -1;
  }
}
