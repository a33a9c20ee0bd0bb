import { isGatedKey } from './trust.js';

/**
 * One config section (honeycomb) from several layers, lowest precedence first. Plain keys
 * (region, limits) merge key by key, the higher layer winning. The keys that say where requests go
 * or name a credential (url, api_url, token, api_key: trust.ts's gated keys) come together from the
 * highest layer that sets any of them: a key from one file is never sent to an endpoint named by
 * another (a project's api_url never receives the key from the user's own file).
 */
export function mergePaired<T extends object>(layers: (T | undefined)[]): Partial<T> {
  const value: Record<string, unknown> = {};
  let paired: T | undefined;
  for (const section of layers) {
    if (!section) continue;
    const entries = Object.entries(section);
    for (const [k, v] of entries) if (!isGatedKey(k, v) && v !== undefined) value[k] = v;
    if (entries.some(([k, v]) => isGatedKey(k, v) && v !== undefined)) paired = section;
  }
  if (paired) for (const [k, v] of Object.entries(paired)) if (isGatedKey(k, v) && v !== undefined) value[k] = v;
  return value as Partial<T>;
}
