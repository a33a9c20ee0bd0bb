/**
 * A terminal as far as the console's screen stream uses one, for tests: cursor moves (CSI r;c H),
 * erase the screen (CSI 2J) or a line (CSI 2K), text with autowrap off (a row is cut at the last
 * column), and line feeds, which scroll at the bottom row (counted: a frame must never scroll).
 * Colours, private modes and OSC strings are read and ignored.
 *
 * `resize` changes the screen the way tmux 3.3 does on the alternate screen (screen_resize_y): a
 * shorter screen first loses the rows below the cursor, then rows from the top; a taller one gets
 * blank rows at the bottom. What was on the terminal is thus moved, not redrawn.
 */
export class TerminalModel {
  private cells: string[][];
  private cx = 0;
  private cy = 0;
  /** Line feeds at the bottom row: each moved the whole screen up a row. */
  scrolled = 0;

  constructor(public cols: number, public rows: number) {
    this.cells = Array.from({ length: rows }, () => this.blank());
  }

  private blank(): string[] {
    return Array.from({ length: this.cols }, () => ' ');
  }

  write(data: string): void {
    const chars = [...data];
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i];
      if (ch === '\x1b' && chars[i + 1] === '[') {
        let j = i + 2;
        while (j < chars.length && !/[@-~]/.test(chars[j])) j++;
        this.csi(chars.slice(i + 2, j).join(''), chars[j]);
        i = j;
      } else if (ch === '\x1b' && chars[i + 1] === ']') {
        let j = i + 2;
        while (j < chars.length && chars[j] !== '\x07' && !(chars[j] === '\x1b' && chars[j + 1] === '\\')) j++;
        i = chars[j] === '\x1b' ? j + 1 : j;
      } else if (ch === '\n') {
        if (this.cy === this.rows - 1) {
          this.cells.shift();
          this.cells.push(this.blank());
          this.scrolled++;
        } else this.cy++;
      } else if (ch === '\r') {
        this.cx = 0;
      } else if (ch >= ' ') {
        // Autowrap off: the last column is overwritten, the cursor stays on the row.
        this.cells[this.cy][this.cx] = ch;
        this.cx = Math.min(this.cx + 1, this.cols - 1);
      }
    }
  }

  private csi(params: string, final: string | undefined): void {
    if (params.startsWith('?')) return;
    const n = params.split(';').map((p) => Number(p) || 0);
    if (final === 'H') {
      // Out-of-range positions are clamped to the screen, as terminals do.
      this.cy = Math.min(Math.max(1, n[0] || 1), this.rows) - 1;
      this.cx = Math.min(Math.max(1, n[1] || 1), this.cols) - 1;
    } else if (final === 'J' && n[0] === 2) {
      this.cells = Array.from({ length: this.rows }, () => this.blank());
    } else if (final === 'K' && n[0] === 2) {
      this.cells[this.cy] = this.blank();
    }
  }

  resize(cols: number, rows: number): void {
    if (rows < this.rows) {
      const below = Math.min(this.rows - 1 - this.cy, this.rows - rows);
      this.cells.splice(this.rows - below, below);
      const top = Math.min(this.cy, this.rows - rows - below);
      this.cells.splice(0, top);
      this.cy -= top;
      this.cells.length = rows;
    }
    this.cols = cols;
    this.cells = Array.from({ length: rows }, (_, y) => Array.from({ length: cols }, (_, x) => this.cells[y]?.[x] ?? ' '));
    this.rows = rows;
    this.cy = Math.min(this.cy, rows - 1);
    this.cx = Math.min(this.cx, cols - 1);
  }

  /** The screen as capture-pane gives it: one string per row, trailing blanks trimmed. */
  screen(): string[] {
    return this.cells.map((r) => r.join('').trimEnd());
  }
}
