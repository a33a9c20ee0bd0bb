import { CoralError } from '../../core/errors.js';
import type { ModelChunk, ModelProvider, ModelRequest } from './types.js';

/**
 * Before a fallback model that sends data off the machine takes over, its provider must have the
 * user's consent: this asks, or throws (with what to do) when the answer is no or cannot be asked.
 */
export type ConsentGate = (provider: ModelProvider) => Promise<void>;

/** A model of the chain, built only when it is needed: a fallback's missing key fails no question the primary answers. */
export type ChainLink = ModelProvider | { name: string; create: () => ModelProvider };

const brief = (err: unknown) => (err instanceof CoralError && err.hint ? `${err.message} ${err.hint}` : (err as Error).message.split('\n')[0]);

/**
 * The configured model, then each fallback in order when one fails before it said anything. Once
 * a model fails, the rest of the turn stays with the one that took over (the next turn starts
 * from the primary again); the user is told which model took over, and `name` is the model that
 * is answering, so the turn's result and the saved conversation name it.
 */
export class FallbackProvider implements ModelProvider {
  private readonly made: (ModelProvider | undefined)[];
  private active = 0;

  constructor(
    private readonly chain: ChainLink[],
    private readonly consent: ConsentGate = async () => undefined,
  ) {
    this.made = chain.map((l) => ('generate' in l ? l : undefined));
  }

  get name(): string {
    return this.made[this.active]?.name ?? this.chain[this.active].name;
  }

  /** Whether the primary sends data off the machine; each fallback is asked for when it takes over. */
  get cloud(): boolean {
    return this.provider(0).cloud;
  }

  private provider(i: number): ModelProvider {
    const made = this.made[i];
    if (made) return made;
    const p = (this.chain[i] as { create: () => ModelProvider }).create();
    this.made[i] = p;
    return p;
  }

  async *generate(req: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    if ((req.round ?? 1) === 1) this.active = 0;
    const failures: string[] = [];
    for (let i = this.active; i < this.chain.length; i++) {
      let p: ModelProvider;
      try {
        p = this.provider(i);
        if (i > this.active && p.cloud) await this.consent(p);
      } catch (err) {
        failures.push(`${this.chain[i].name} cannot take over: ${brief(err)}`);
        continue;
      }
      if (i > this.active) {
        yield { type: 'notice', text: `${failures.join('; ')}; falling back to ${p.name} for the rest of this turn.` };
        this.active = i;
      }
      let said = false;
      try {
        for await (const chunk of p.generate(req, signal)) {
          // A notice (the prompt is longer than Ollama's context) says nothing of the answer: a failure after it may still fall back.
          if (chunk.type !== 'notice') said = true;
          yield chunk;
        }
        return;
      } catch (err) {
        if (said || signal.aborted) throw err;
        failures.length = 0;
        failures.push(`${p.name} failed (${brief(err)})`);
      }
    }
    throw new Error(failures.join('; '));
  }
}
