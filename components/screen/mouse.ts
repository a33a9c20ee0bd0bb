/**
 * Mouse reports (SGR mode 1006 over mode 1000: presses, releases and the wheel, no motion) read
 * out of the terminal's input before ink parses it (ink's useInput knows no mouse: a report would
 * reach the chat input as the characters "[<64;10;5M"). The terminal reports only while the
 * console runs: on at enter, off at every way out (screen/terminal.ts).
 */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
export const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';

/** CORAL_MOUSE=0 leaves the mouse to the terminal (its own text selection without Shift). */
export const mouseEnabled = (env: NodeJS.ProcessEnv = process.env) => env.CORAL_MOUSE !== '0';

/** A press of the left button or a wheel notch, at a cell counted from 0 (column x, row y). */
export interface MouseEvent {
  kind: 'click' | 'wheel-up' | 'wheel-down';
  x: number;
  y: number;
}

const REPORT = /\x1b\[<(\d+);(\d+);(\d+)([Mm])/g;
/** The start of a report cut off at the end of a read: kept for the next read. */
const PARTIAL = /\x1b(\[(<[\d;]*)?)?$/;

function eventOf(button: number, x: number, y: number, press: boolean): MouseEvent | null {
  if (button & 32) return null; // motion
  if (button & 64) return (button & 3) === 0 ? { kind: 'wheel-up', x: x - 1, y: y - 1 } : (button & 3) === 1 ? { kind: 'wheel-down', x: x - 1, y: y - 1 } : null;
  return press && (button & 3) === 0 ? { kind: 'click', x: x - 1, y: y - 1 } : null;
}

/**
 * One read of the terminal's input (pure): the text without the mouse reports, the events they
 * were, and a cut-off report's start to put before the next read. A lone Esc is never held back
 * (it is the Esc key); only `ESC [ <` and what follows it is.
 */
export function splitMouse(carry: string, chunk: string): { text: string; events: MouseEvent[]; carry: string } {
  const all = carry + chunk;
  const events: MouseEvent[] = [];
  let text = all.replace(REPORT, (_m, b: string, x: string, y: string, end: string) => {
    const e = eventOf(Number(b), Number(x), Number(y), end === 'M');
    if (e) events.push(e);
    return '';
  });
  const cut = PARTIAL.exec(text);
  let rest = '';
  if (cut && cut[2] !== undefined) {
    rest = cut[0];
    text = text.slice(0, cut.index);
  }
  return { text, events, carry: rest };
}

/**
 * Takes the mouse reports out of what `stdin.read()` gives ink, for as long as it is installed;
 * `listen` gets each event. Returns the way back (the original read).
 */
export function interceptMouse(stdin: NodeJS.ReadStream, listen: (e: MouseEvent) => void): () => void {
  const original = stdin.read.bind(stdin);
  let carry = '';
  const read = (size?: number) => {
    const chunk = original(size) as string | Buffer | null;
    if (chunk === null) return null;
    const r = splitMouse(carry, typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    carry = r.carry;
    for (const e of r.events) listen(e);
    return r.text;
  };
  (stdin as unknown as { read: typeof read }).read = read;
  return () => {
    (stdin as unknown as { read: typeof read }).read = original;
  };
}
