/**
 * Telemetry, tool answers and config text are shown on terminals, and a terminal acts on some
 * characters instead of showing them: ESC sequences clear the screen, set the title or write the
 * clipboard (OSC 52: a command waiting to be pasted), a carriage return overwrites the line, and
 * bidirectional overrides reorder what is shown. Text from outside is shown with those characters
 * written as visible escapes (`\x1b`, `\u202e`); tab and newline stay.
 */
const UNSAFE_CHAR = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE = new RegExp(UNSAFE_CHAR.source, 'g');

const visible = (c: string): string => {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with every character a terminal would act on written as a visible escape (pure). */
export function terminalSafe(text: string): string {
  return UNSAFE_CHAR.test(text) ? text.replace(UNSAFE, visible) : text;
}

/**
 * A value's strings (and object keys) made terminalSafe, deeply; parts with nothing to change are
 * returned as they are, so a large clean answer costs one scan and no copy.
 */
export function terminalSafeDeep<T>(value: T): T {
  return safeValue(value, new Set()) as T;
}

/** `safeKeys`: keys already found safe in this value; a trace answer repeats the same few per span. */
function safeValue(v: unknown, safeKeys: Set<string>): unknown {
  if (typeof v === 'string') return terminalSafe(v);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const s = safeValue(v[i], safeKeys);
      if (s !== v[i]) (out ??= v.slice())[i] = s;
    }
    return out ?? v;
  }
  if (v === null || typeof v !== 'object' || !isPlain(v)) return v;
  // for...in, not Object.entries' pairs: a trace answer holds ~10 values per span, 100,000 spans.
  const o = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k in o) {
    const x = o[k];
    let sk = k;
    if (!safeKeys.has(k)) {
      sk = terminalSafe(k);
      if (sk === k) safeKeys.add(k);
    }
    const sx = safeValue(x, safeKeys);
    if (sk !== k || sx !== x) {
      out ??= { ...o };
      if (sk !== k) delete out[k];
      out[sk] = sx;
    }
  }
  return out ?? v;
}

const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * JSON text for a terminal: the same data as JSON.stringify gives (which escapes C0 controls
 * already), with DEL, C1 controls and the bidirectional overrides escaped as \u too.
 */
export function jsonForTerminal(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
