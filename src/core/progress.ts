/**
 * Progress for long work, on stderr so stdout stays clean for --json. On a terminal one line
 * updates in place; elsewhere (CI, pipes) a line is printed at each quarter.
 */
export interface Progress {
  update(fraction: number, detail?: string): void;
  done(summary: string): void;
}

export function progress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let lastQuarter = -1;
  return {
    update(fraction, detail = '') {
      const pct = Math.floor(Math.min(1, Math.max(0, fraction)) * 100);
      if (tty) {
        stream.write(`\r\x1b[2K${label}: ${pct}%${detail ? ` ${detail}` : ''}`);
      } else if (Math.floor(pct / 25) > lastQuarter) {
        lastQuarter = Math.floor(pct / 25);
        stream.write(`${label}: ${pct}%${detail ? ` ${detail}` : ''}\n`);
      }
    },
    done(summary) {
      stream.write(`${tty ? '\r\x1b[2K' : ''}${label}: ${summary}\n`);
    },
  };
}
