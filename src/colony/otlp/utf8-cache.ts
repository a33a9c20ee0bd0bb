/**
 * Decoding a protobuf string through Buffer#toString costs a native call and a new string each
 * time, and an export repeats the same few strings on every span (attribute keys, service, scope,
 * method and route values). Short strings are looked up by their bytes in a small direct-mapped
 * cache first: a hit compares bytes in JS and returns the string decoded earlier from the same
 * bytes, so the result is always exactly what toString('utf8') gives.
 */
const SLOTS = 4096;
/** Longer strings rarely repeat (statements, messages) and cost more to hash and compare. */
export const MAX_CACHED_BYTES = 48;

const cachedBytes: (Uint8Array | null)[] = new Array<Uint8Array | null>(SLOTS).fill(null);
const cachedStrings: string[] = new Array<string>(SLOTS).fill('');

export function decodeUtf8(buf: Buffer, start: number, end: number): string {
  const n = end - start;
  if (n === 0) return '';
  if (n > MAX_CACHED_BYTES) return buf.toString('utf8', start, end);
  // FNV-1a over the bytes.
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  const slot = (h ^ (h >>> 15)) & (SLOTS - 1);
  const bytes = cachedBytes[slot];
  if (bytes !== null && bytes.length === n) {
    let same = true;
    for (let i = 0; i < n; i++) {
      if (bytes[i] !== buf[start + i]) {
        same = false;
        break;
      }
    }
    if (same) return cachedStrings[slot];
  }
  const s = buf.toString('utf8', start, end);
  cachedBytes[slot] = Uint8Array.prototype.slice.call(buf, start, end);
  cachedStrings[slot] = s;
  return s;
}
