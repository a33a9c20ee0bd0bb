/**
 * Masking for anything that may carry a secret before it is printed (`coral config show`/`validate`,
 * `coral config trust`), and detection of plain-text secrets sitting where references belong.
 */
export const MASK = '****';

/** Known key shapes (OpenAI/Anthropic sk-, GitHub, Slack, AWS, Google, Honeycomb-like long hex). */
const KEY_SHAPES = [/^sk-/i, /^sk_/i, /^gh[pousr]_/, /^github_pat_/, /^xox[abposr]-/, /^AKIA[0-9A-Z]{12,}/, /^AIza[\w-]{20,}/, /^glpat-/, /^hc[a-z]{2,3}_/i];

/** Whether a bare value looks like a credential rather than a name, path, flag or number. */
export function looksLikeSecret(value: string): boolean {
  const v = value.trim();
  if (KEY_SHAPES.some((re) => re.test(v))) return true;
  if (v.length < 20 || /[\s/\\]/.test(v) || /^-/.test(v) || /^\d+$/.test(v)) return false;
  // Long, dense and mixed: the shape of a random token (a word or a path is not).
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(v)).length;
  return classes >= 2 && /^[\w+=.~-]+$/.test(v) && !/^[a-z_.-]+$/i.test(v);
}

/** Names of options, variables and query parameters whose value is a secret. */
export const SECRET_NAME = /(token|secret|passw(or)?d|api[_-]?key|apikey|auth|credential|private[_-]?key|access[_-]?key|session|cookie|^key$|^pwd$)/i;

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * A key reference shown safely: `env://GEMINI_API_KEY` stays readable; a value that is not a
 * variable name (a key pasted after `env://`) is masked.
 */
export function maskReference(ref: string): string {
  const m = /^(env|keyring):\/\/(.*)$/i.exec(ref);
  if (!m) return MASK;
  const name = m[2];
  return m[1].toLowerCase() === 'env' && VARIABLE.test(name) && !looksLikeSecret(name) ? ref : `${m[1]}://${MASK}`;
}

/** A URL with its user, password and secret-looking query values masked. */
export function maskUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return looksLikeSecret(raw) ? MASK : raw;
  }
  if (url.username) url.username = MASK;
  if (url.password) url.password = MASK;
  for (const [k, v] of [...url.searchParams]) if (SECRET_NAME.test(k) || looksLikeSecret(v)) url.searchParams.set(k, MASK);
  return url.toString();
}

/**
 * Command arguments with secrets masked: the value after a secret-named flag (`--token X`,
 * `--api-key=X`), URL credentials, and anything shaped like a key.
 */
export function maskArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let nextIsSecret = false;
  for (const a of args) {
    if (nextIsSecret) {
      out.push(MASK);
      nextIsSecret = false;
      continue;
    }
    const flag = /^(--?[\w-]+)=(.*)$/.exec(a);
    if (flag && SECRET_NAME.test(flag[1])) out.push(`${flag[1]}=${MASK}`);
    else if (/^--?[\w-]+$/.test(a) && SECRET_NAME.test(a)) {
      out.push(a);
      nextIsSecret = true;
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(a)) out.push(/^(env|keyring):\/\//i.test(a) ? maskReference(a) : maskUrl(a));
    else out.push(looksLikeSecret(a) ? MASK : a);
  }
  return out;
}

/** Which arguments are plain-text secrets (by the same rules as maskArgs), as indices. */
export function secretArgIndices(args: readonly string[]): number[] {
  const masked = maskArgs(args);
  return masked.flatMap((m, i) => (m !== args[i] ? [i] : []));
}

/** Whether an environment entry handed to a child holds a plain-text secret (a reference is fine). */
export function isPlainSecretEnv(name: string, value: string): boolean {
  if (/^(env|keyring):\/\//i.test(value)) return false;
  return (SECRET_NAME.test(name) && value.length > 0) || looksLikeSecret(value);
}
