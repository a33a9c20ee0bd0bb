import { describe, expect, it } from 'vitest';
import { chooseSource, gapRuns, groupLabel, otherLabel, topGroups } from '../../../src/colony/unified/series-fold.js';

describe('the source that answers', () => {
  it('is the one that saw the most, the SDK on a tie, none when neither saw anything', () => {
    expect(chooseSource([{ source: 'ebpf', samples: 10 }, { source: 'otlp', samples: 3 }, { source: 'otlp', samples: 4 }])).toBe('ebpf');
    expect(chooseSource([{ source: 'ebpf', samples: 7 }, { source: 'otlp', samples: 7 }])).toBe('otlp');
    expect(chooseSource([{ source: 'otlp', samples: 1 }])).toBe('otlp');
    expect(chooseSource([{ source: 'ebpf', samples: 0 }])).toBeNull();
    expect(chooseSource([])).toBeNull();
  });
});

describe('top N and other', () => {
  const totals = [{ group: 'b', samples: 5 }, { group: null, samples: 9 }, { group: 'a', samples: 5 }, { group: 'c', samples: 1 }, { group: 'd', samples: 20 }];

  it('keeps the largest groups apart, ties by value with no value last, and says what went into other', () => {
    expect(topGroups(totals, 3)).toEqual({ kept: ['d', null, 'a'], folded: 2, foldedSamples: 6 });
    expect(topGroups(totals, 10)).toEqual({ kept: ['d', null, 'a', 'b', 'c'], folded: 0, foldedSamples: 0 });
    expect(topGroups([{ group: null, samples: 5 }, { group: 'z', samples: 5 }], 1).kept).toEqual(['z']);
  });

  it('counts groups a read left out (only the largest are listed) into other', () => {
    expect(topGroups(totals, 2, 500, 1000)).toEqual({ kept: ['d', null], folded: 498, foldedSamples: 971 });
  });

  it('labels groups and the rest', () => {
    expect([groupLabel('pod-1'), groupLabel(null), otherLabel(1), otherLabel(3)]).toEqual(['pod-1', '(no value)', 'other (1 value)', 'other (3 values)']);
  });
});

describe('gaps', () => {
  it('are the runs of steps where no series has a value: a zero is not a gap', () => {
    expect(gapRuns([[null, 0, null, null, 3, null]], 6)).toEqual([{ first: 0, last: 0 }, { first: 2, last: 3 }, { first: 5, last: 5 }]);
    expect(gapRuns([[null, null, 1], [2, null, null]], 3)).toEqual([{ first: 1, last: 1 }]);
    expect(gapRuns([[0, 0]], 2)).toEqual([]);
    expect(gapRuns([], 3)).toEqual([{ first: 0, last: 2 }]);
  });
});
