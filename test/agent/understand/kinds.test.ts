import { describe, expect, it } from 'vitest';
import { questionKind } from '../../../src/agent/understand/kinds.js';

const kind = (q: string) => questionKind(q).kind;

describe('questionKind', () => {
  it('reads what shape of answer is wanted', () => {
    expect(kind('something feels off, can you help')).toBe('status');
    expect(kind("what's going on?")).toBe('diagnosis');
    expect(kind('status?')).toBe('status');
    expect(kind('summarize the last 24h')).toBe('status');
    expect(kind('which services are unhealthy?')).toBe('list');
    expect(kind('is currency healthy?')).toBe('verdict');
    expect(kind('compare p99 of cart before and after the deploy')).toBe('compare');
    expect(kind('is the database saturated?')).toBe('saturation');
    expect(kind('are we out of connections?')).toBe('saturation');
    expect(kind('what is the p99 latency of cart?')).toBe('number');
    expect(kind('fronted latency p95')).toBe('number');
    expect(kind('why is checkout slow?')).toBe('diagnosis');
    expect(kind('should we roll back payment?')).toBe('rollback');
  });

  it('knows which way a yes/no question leans', () => {
    expect(questionKind('is currency healthy?').polarity).toBe('good');
    expect(questionKind('is the billing service down?').polarity).toBe('bad');
    expect(questionKind('is payment failing?').polarity).toBe('bad');
  });
});

describe('questionKind: fragments', () => {
  it('a service and a state with a question mark is a yes/no question', () => {
    expect(questionKind('payment failing?')).toEqual({ kind: 'verdict', polarity: 'bad' });
    expect(questionKind('payment error rate')).toMatchObject({ kind: 'number' });
    // "backing up" leans to trouble, whatever "up" alone means.
    expect(questionKind('orders topic backing up?')).toEqual({ kind: 'verdict', polarity: 'bad' });
    // A window after the state, and the state alone.
    expect(questionKind('frontend slow since the release?')).toEqual({ kind: 'verdict', polarity: 'bad' });
    expect(questionKind('all good?')).toEqual({ kind: 'verdict', polarity: 'good' });
    expect(questionKind('any errors from recommendation')).toMatchObject({ kind: 'verdict' });
  });
});
