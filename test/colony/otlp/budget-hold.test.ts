import { describe, expect, it } from 'vitest';
import { BUDGET_RETRY_AFTER_S, BudgetHold, DEFAULT_MAX_INFLIGHT_BYTES, InflightBudget } from '../../../src/colony/otlp/limits.js';

describe('InflightBudget', () => {
  it('holds 64 MiB by default and tells a refused sender to retry after a second', () => {
    expect(new InflightBudget().capacity).toBe(64 * 1024 * 1024);
    expect(DEFAULT_MAX_INFLIGHT_BYTES).toBe(67_108_864);
    expect(BUDGET_RETRY_AFTER_S).toBe(1);
  });

  it('has everything available while nothing is held, then what is left of the capacity, never less than 0', () => {
    const b = new InflightBudget(100);
    expect(b.available()).toBe(Number.POSITIVE_INFINITY);
    expect(b.tryAcquire(30)).toBe(true);
    expect([b.inUse, b.available()]).toEqual([30, 70]);
    expect(b.tryAcquire(170)).toBe(false);
    expect(b.inUse).toBe(30);
    b.release(30);
    expect(b.tryAcquire(170)).toBe(true);
    expect(b.available()).toBe(0);
    expect(b.tryAcquire(0)).toBe(true);
  });

  it('admits up to exactly the capacity beside others, and counts a request\'s own bytes as free to it', () => {
    const b = new InflightBudget(100);
    expect(b.tryAcquire(40)).toBe(true);
    expect(b.tryAcquire(60)).toBe(true);
    expect(b.tryAcquire(1)).toBe(false);
    // A request holding all 100 bytes is alone: it may grow past the capacity.
    const alone = new InflightBudget(100);
    expect(alone.tryAcquire(100)).toBe(true);
    expect(alone.available(100)).toBe(Number.POSITIVE_INFINITY);
    expect(alone.tryAcquire(50, 100)).toBe(true);
    expect(alone.available(99)).toBe(0);
  });

  it('keeps the peak, and never goes below zero on release', () => {
    const b = new InflightBudget(100);
    b.tryAcquire(70);
    b.release(50);
    b.tryAcquire(20);
    expect([b.inUse, b.peak]).toEqual([40, 70]);
    b.release(1000);
    expect(b.inUse).toBe(0);
    expect(b.available()).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('BudgetHold', () => {
  it('adds step by step while the budget allows, and releases everything once', () => {
    const budget = new InflightBudget(100);
    const other = new BudgetHold(budget);
    const mine = new BudgetHold(budget);
    expect(other.tryAdd(30)).toBe(true);
    expect(mine.tryAdd(50)).toBe(true);
    expect(mine.tryAdd(21)).toBe(false);
    expect(mine.tryAdd(20)).toBe(true);
    expect(budget.inUse).toBe(100);
    mine.releaseAll();
    expect(budget.inUse).toBe(30);
    mine.releaseAll();
    expect(budget.inUse).toBe(30);
  });

  it('lets a request alone grow past the capacity', () => {
    const budget = new InflightBudget(100);
    const mine = new BudgetHold(budget);
    expect(mine.tryAdd(80)).toBe(true);
    expect(mine.tryAdd(80)).toBe(true);
    expect(budget.inUse).toBe(160);
    expect(mine.room()).toBe(Number.POSITIVE_INFINITY);
  });

  it('says how much a request could hold in place of what it holds: its own bytes plus what is free', () => {
    const budget = new InflightBudget(100);
    const other = new BudgetHold(budget);
    const mine = new BudgetHold(budget);
    expect(mine.room()).toBe(Number.POSITIVE_INFINITY);
    other.tryAdd(30);
    expect(mine.room()).toBe(70);
    mine.tryAdd(50);
    expect(mine.room()).toBe(70);
    other.tryAdd(20);
    expect(mine.room()).toBe(50);
    other.releaseAll();
    expect(mine.room()).toBe(Number.POSITIVE_INFINITY);
  });
});
