/** The gate's queue is full: the caller is told to come back later rather than wait without end. */
export class GateFullError extends Error {
  override name = 'GateFullError';
}

/**
 * A counting semaphore: at most `limit` runs at once, the rest waiting in order (at most
 * `maxWaiting` of them; beyond, `run` refuses with GateFullError). A finished run hands its place
 * straight to the next waiting one, so that a newcomer can never slip in between.
 */
export class Gate {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    readonly limit: number,
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  get active(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else if (this.queue.length >= this.maxWaiting) throw new GateFullError(`${this.running} runs in progress and ${this.queue.length} waiting`);
    else await new Promise<void>((r) => this.queue.push(r));
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
