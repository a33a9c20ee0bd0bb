import { CoralError } from './errors.js';

/** Parses an integer option, saying which option was wrong and what is accepted. */
export function parseIntOption(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new CoralError(`Invalid ${name} "${text}".`, `Expected a whole number from ${min} to ${max}.`);
  }
  return n;
}

/** A size as DuckDB's settings take it ('512MB', '4GiB') in bytes, KB and KiB alike 1024; null when it is not one. */
export function sizeBytes(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.exec(text.trim());
  return m ? Number(m[1]) * 1024 ** ('KMGT'.indexOf(m[2][0].toUpperCase()) + 1) : null;
}

export function parseMemoryLimit(text: string): string {
  if (sizeBytes(text) === null) {
    throw new CoralError(`Invalid --memory-limit "${text}".`, 'Expected a size such as 512MB, 2GB or 4GiB.');
  }
  return text.trim();
}
