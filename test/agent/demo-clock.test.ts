import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAgentSession } from '../../src/agent/setup.js';

afterEach(() => {
  vi.useRealTimers();
});

describe("a demo's clock", () => {
  it('stands still at the end of its data: the same window three minutes later, and the prompt says that time', async () => {
    const session = await openAgentSession({ demo: 'payment-failure' });
    try {
      await session.ready;
      const ask = async () => (await session.hub.call('clock', 'coral_get_service_health', { time_range: '5m' }, { timeoutMs: 60_000 })).structured as { services: { serviceName: string; lastSeen?: string }[] } & Record<string, unknown>;
      const summary = async () => (await session.hub.call('clock-s', 'coral_query_summary', { time_range: '5m' }, { timeoutMs: 60_000 })).structured as { to: string; services: unknown[] };
      const before = await summary();
      const healthBefore = await ask();
      // Only Date moves: the load, the store and the tools' timers run as usual.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 3 * 60_000);
      const after = await summary();
      expect(after.to).toBe(before.to);
      expect(after.services).toEqual(before.services);
      expect(await ask()).toEqual(healthBefore);
      expect(session.system).toContain(`The time now is ${before.to}`);
    } finally {
      await session.close();
    }
  }, 120_000);
});
