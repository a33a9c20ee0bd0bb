import { describe, expect, it } from 'vitest';
import { parseMemoryLimit, sizeBytes } from '../../src/core/args.js';

describe('sizes', () => {
  it('reads a number and a unit in bytes, KB and KiB alike 1024, and nothing else', () => {
    expect(sizeBytes('512MB')).toBe(512 * 1024 ** 2);
    expect(sizeBytes(' 1.5 gib ')).toBe(1.5 * 1024 ** 3);
    expect(sizeBytes('2TB')).toBe(2 * 1024 ** 4);
    expect(sizeBytes('8KB')).toBe(8192);
    for (const bad of ['lots', '12', 'MB', '-1MB', '1PB']) expect(sizeBytes(bad), bad).toBeNull();
  });

  it('--memory-limit takes exactly what sizeBytes reads, trimmed', () => {
    expect(parseMemoryLimit(' 4GiB ')).toBe('4GiB');
    expect(() => parseMemoryLimit('4 gigs')).toThrow('Invalid --memory-limit "4 gigs".');
  });
});
