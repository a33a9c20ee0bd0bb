import { CoralError } from './errors.js';

/** Parses an integer option, saying which option was wrong and what is accepted. */
export function parseIntOption(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new CoralError(`Invalid ${name} "${text}".`, `Expected a whole number from ${min} to ${max}.`);
  }
  return n;
}

export function parseMemoryLimit(text: string): string {
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(text.trim())) {
    throw new CoralError(`Invalid --memory-limit "${text}".`, 'Expected a size such as 512MB, 2GB or 4GiB.');
  }
  return text.trim();
}
