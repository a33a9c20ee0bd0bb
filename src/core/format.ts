/**
 * 1234567 -> "1,234,567", as toLocaleString('en-US') writes it, without its first call's ICU set-up
 * (~30 ms of CPU, paid by the console's first trace).
 */
export function formatCount(n: number): string {
  const r = Math.round(n);
  if (!Number.isFinite(r) || Math.abs(r) >= 1e21) return r.toLocaleString('en-US');
  const sign = r < 0 || Object.is(r, -0) ? '-' : '';
  return sign + String(Math.abs(r)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Milliseconds for people: 0.004ms, 0.42ms, 23ms, 1,234ms (a sub-millisecond time never reads as 0ms). */
export function formatMs(ms: number): string {
  if (ms > 0 && ms < 0.005) return `${Number(ms.toPrecision(1))}ms`;
  if (ms < 10) return `${Number(ms.toFixed(2))}ms`;
  return `${formatCount(ms)}ms`;
}

/** A wait that may run to minutes or hours, in the unit a person reads it in (formatMs below ten seconds). */
export function formatWait(ms: number): string {
  if (ms < 10_000) return formatMs(ms);
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)}s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** "1 span", "2 spans": the count and the word, plural unless the count is one. */
export function plural(n: number, word: string, count: (n: number) => string = String): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}
