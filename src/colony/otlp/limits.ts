/**
 * A byte budget for request bodies in flight (counted raw while they arrive, then decompressed,
 * and held until the batch is stored). Without it, N concurrent maximum-size exports cost N times
 * the body limit, and more once decoded. Shared by every receiver of one colony (HTTP and gRPC).
 */
export const DEFAULT_MAX_INFLIGHT_BYTES = 64 * 1024 * 1024;

/** Seconds a sender refused for lack of budget is told to wait (Retry-After). */
export const BUDGET_RETRY_AFTER_S = 1;

export class InflightBudget {
  private used = 0;
  /** The most ever held at once, for tests and the colony's report. */
  peak = 0;

  constructor(readonly capacity: number = DEFAULT_MAX_INFLIGHT_BYTES) {}

  get inUse(): number {
    return this.used;
  }

  /**
   * What a request holding `ownHeld` bytes may still take: a request alone (nothing held by others)
   * is always admitted whatever its size, so no body can starve behind a small budget.
   */
  available(ownHeld = 0): number {
    return this.used - ownHeld <= 0 ? Number.POSITIVE_INFINITY : Math.max(0, this.capacity - this.used);
  }

  tryAcquire(bytes: number, ownHeld = 0): boolean {
    if (bytes > this.available(ownHeld)) return false;
    this.used += bytes;
    if (this.used > this.peak) this.peak = this.used;
    return true;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** One request's share of the budget: acquired step by step, released once, whatever happens. */
export class BudgetHold {
  private held = 0;

  constructor(private readonly budget: InflightBudget) {}

  tryAdd(bytes: number): boolean {
    if (!this.budget.tryAcquire(bytes, this.held)) return false;
    this.held += bytes;
    return true;
  }

  /** What the request could hold in place of what it holds now (its own bytes count as free). */
  room(): number {
    return this.budget.available(this.held) === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : this.budget.available(this.held) + this.held;
  }

  releaseAll(): void {
    this.budget.release(this.held);
    this.held = 0;
  }
}
