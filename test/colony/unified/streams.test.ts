import { describe, expect, it } from 'vitest';
import { isStreamOperation, splitStreams, streamLine, summarizeStreams } from '../../../src/colony/unified/streams.js';
import type { OperationView } from '../../../src/colony/unified/operations.js';

const view = (operation: string, kind: 'server' | 'db' = 'server'): OperationView => ({
  service: 'flagd', source: 'otlp', basis: 'spans', kind, operation, requests: 4, errors: 0,
  histogram: { bounds: [1, 10, 30_000, 60_000], counts: [0, 0, 3, 1, 0] },
});

describe('streaming RPCs by name', () => {
  it.each([
    ['flagd.evaluation.v1.Service/EventStream', true],
    ['flagd.sync.v1.FlagSyncService/SyncFlags', false],
    ['google.cloud.speech.v1.Speech/StreamingRecognize', true],
    ['k8s.io/Watch', true],
    ['pubsub.Subscriber/SubscribeEvents', true],
    ['flagd.evaluation.v1.Service/ResolveBoolean', false],
    ['proxy.Service/GetUpstream', false],
    ['GET /api/Stream', false],
  ])('%s -> %s', (op, want) => {
    expect(isStreamOperation(op)).toBe(want);
  });

  it('splits server streams from calls, leaves database operations alone, and says how long they lasted', () => {
    const { calls, streams } = splitStreams([view('flagd.evaluation.v1.Service/ResolveBoolean'), view('flagd.evaluation.v1.Service/EventStream'), view('StreamRows', 'db')]);
    expect(calls.map((c) => c.operation)).toEqual(['flagd.evaluation.v1.Service/ResolveBoolean', 'StreamRows']);
    const [s] = summarizeStreams(streams);
    expect(streamLine(s)).toBe('flagd flagd.evaluation.v1.Service/EventStream: 4 streams closed, half within 20.0s, longest ~60.0s (SDK spans)');
  });
});
