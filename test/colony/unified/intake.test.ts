import { describe, expect, it } from 'vitest';
import { intakeSilence } from '../../../src/colony/unified/intake.js';

/** A colony that receives nothing says so and names no service; one silent service among live ones is not that. */
const MIN = 60_000_000_000n;
const END = 1_764_675_000_000_000_000n; // 2025-12-02T11:30:00Z
const svc = (serviceName: string, minutesAgo: number) => ({ serviceName, lastSeenNs: END - BigInt(minutesAgo * 60) * 1_000_000_000n });

describe('intakeSilence', () => {
  it('says nothing has been received yet when no service ever sent anything', () => {
    expect(intakeSilence([], END)).toEqual({ lastSeenNs: null, text: 'No telemetry has been received yet: no service has sent anything to this colony.' });
  });

  it('is quiet while anything still arrives, even when other services stopped', () => {
    expect(intakeSilence([svc('ad', 30), svc('cart', 1)], END)).toBeNull();
    expect(intakeSilence([svc('ad', 2)], END)).toBeNull();
  });

  it('names the intake, not a service, when every service stopped at once', () => {
    const r = intakeSilence([svc('ad', 25), svc('cart', 25.5), svc('payment', 26)], END);
    expect(r?.lastSeenNs).toBe(END - 25n * MIN);
    expect(r?.text).toBe('Nothing received since 11:05 UTC (25 min before 11:30 UTC): all 3 services went silent at once. That is the colony\'s intake (collector, exporter, network) or the whole system, not one service.');
  });

  it('says how many stopped together when the silence came in steps', () => {
    expect(intakeSilence([svc('ad', 25), svc('cart', 25), svc('payment', 60)], END)?.text).toMatch(/: every service is silent \(2 of 3 stopped together\)\. That is the colony's intake/);
  });

  it('with one service, cannot tell the service from the intake and says both', () => {
    expect(intakeSilence([svc('ad', 10)], END)?.text).toBe('Nothing received since 11:20 UTC (10 min before 11:30 UTC): the only service went silent, or the colony\'s intake (collector, exporter, network) stopped.');
  });
});
