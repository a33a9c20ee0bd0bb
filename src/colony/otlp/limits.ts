/**
 * A byte budget for exports in flight: a body is counted raw while it arrives, then decompressed;
 * before it is decoded the batch it will decode into is reserved beside it (decoded-bytes.ts), and
 * once decoded the batch's measured size is held instead, until the batch is stored. Without it, N
 * concurrent exports cost N times the body limit, and a minimal span's batch is ~12 times its
 * protobuf. Shared by every receiver of one colony (HTTP and gRPC).
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

  /** Takes `bytes` whatever is left: for memory already spent, which requests after it must see. */
  force(bytes: number): void {
    this.used += bytes;
    if (this.used > this.peak) this.peak = this.used;
  }
}

/** What a sender refused for lack of budget is told (HTTP 429, gRPC RESOURCE_EXHAUSTED with RetryInfo); `wanted`: what this export would have taken. */
export function overBudgetMessage(budget: InflightBudget, wanted?: number): string {
  const own = wanted === undefined ? '' : `this export would decode into about ${wanted} bytes, and `;
  return `${own}the colony is already holding ${budget.inUse} bytes of exports in flight (limit ${budget.capacity}, --max-inflight-mb); retry after ${BUDGET_RETRY_AFTER_S} s`;
}

/** One request's share of the budget: acquired step by step, released once, whatever happens. */
export class BudgetHold {
  private held = 0;

  constructor(readonly budget: InflightBudget) {}

  /** The bytes this request holds. */
  get bytes(): number {
    return this.held;
  }

  tryAdd(bytes: number): boolean {
    if (!this.budget.tryAcquire(bytes, this.held)) return false;
    this.held += bytes;
    return true;
  }

  /** What the request could hold in place of what it holds now (its own bytes count as free). */
  room(): number {
    return this.budget.available(this.held) === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : this.budget.available(this.held) + this.held;
  }

  /**
   * Holds exactly `bytes` from now on, even past the capacity: an export's batch once decoded, in
   * place of what was reserved for it. The memory is spent by then; refusing it would only waste
   * the work, while holding it keeps further exports out until it is stored.
   */
  resize(bytes: number): void {
    if (bytes >= this.held) this.budget.force(bytes - this.held);
    else this.budget.release(this.held - bytes);
    this.held = bytes;
  }

  releaseAll(): void {
    this.budget.release(this.held);
    this.held = 0;
  }
}
