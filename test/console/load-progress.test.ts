import { describe, expect, it } from 'vitest';
import { LoadProgress } from '../../src/console/load-progress.js';

describe('LoadProgress', () => {
  it('lets a waiter go once its fraction is reported, not before, and at once when it is in already', async () => {
    const p = new LoadProgress();
    const order: string[] = [];
    const never = new Promise<void>(() => undefined);
    const half = p.reached(0.5, never).then(() => order.push('half'));
    const most = p.reached(0.9, never).then(() => order.push('most'));
    p.report(0.3);
    await Promise.resolve();
    expect(order).toEqual([]);
    p.report(0.6);
    await half;
    expect(order).toEqual(['half']);
    await p.reached(0.2, never);
    p.report(1);
    await most;
    expect(order).toEqual(['half', 'most']);
  });

  it('lets a waiter go when the load ends first, failed or not', async () => {
    const p = new LoadProgress();
    await expect(p.reached(0.5, Promise.resolve())).resolves.toBeUndefined();
    await expect(p.reached(0.5, Promise.reject(new Error('gone')))).resolves.toBeUndefined();
  });
});
