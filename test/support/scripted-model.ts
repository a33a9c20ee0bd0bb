import type { ModelChunk, ModelProvider, ModelRequest } from '../../src/agent/providers/types.js';

/** One round of a scripted model: its chunks, or chunks and then a failure. */
export type Round = ModelChunk[] | { chunks: ModelChunk[]; fail: string };

/** A model that plays one scripted round per request (the last one repeats), keeping what it was sent. */
export function scripted(rounds: Round[], onRound?: (round: number) => void): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'test:scripted',
    cloud: false,
    requests,
    async *generate(req: ModelRequest): AsyncIterable<ModelChunk> {
      requests.push(structuredClone(req));
      onRound?.(requests.length);
      const r = rounds[Math.min(requests.length, rounds.length) - 1];
      const chunks = Array.isArray(r) ? r : r.chunks;
      for (const c of chunks) yield c;
      if (!Array.isArray(r)) throw new Error(r.fail);
    },
  };
}

export const call = (id: string, name: string, args: Record<string, unknown>): ModelChunk => ({ type: 'tool_call', call: { id, name, args } });
export const text = (t: string): ModelChunk => ({ type: 'text', text: t });
