import type { ModelChunk, ModelProvider, ModelRequest } from './types.js';

/**
 * The configured model, then each fallback in order when one fails before it said anything; the
 * user is told which model took over.
 */
export class FallbackProvider implements ModelProvider {
  constructor(private readonly chain: ModelProvider[]) {}

  get name(): string {
    return this.chain[0].name;
  }

  get cloud(): boolean {
    return this.chain.some((p) => p.cloud);
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    let lastError: unknown;
    for (let i = 0; i < this.chain.length; i++) {
      const p = this.chain[i];
      let said = false;
      try {
        if (i > 0) yield { type: 'notice', text: `${this.chain[i - 1].name} failed (${(lastError as Error).message}); falling back to ${p.name}.` };
        for await (const chunk of p.generate(req, signal)) {
          said = true;
          yield chunk;
        }
        return;
      } catch (err) {
        if (said || signal.aborted) throw err;
        lastError = err;
      }
    }
    throw lastError;
  }
}
