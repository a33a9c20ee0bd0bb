import { describe, expect, it } from 'vitest';
import { fitHints } from '../../components/panes/status-hints.js';

const hints = [
  { keys: 'j/k', description: 'move' },
  { keys: 'Enter', description: 'send the question (Enter on empty input: run the recorded investigation)' },
  { keys: 'Tab', description: 'next pane' },
  { keys: '?', description: 'keys and commands' },
  { keys: 'q', description: 'quit (typed in the chat input)' },
];

describe('status-bar hints', () => {
  it('show each hint whole, as its key and the head of its description', () => {
    expect(fitHints(hints, 200)).toBe('j/k move · Enter send the question · Tab next pane · ? keys and commands · q quit');
  });

  it('drop what does not fit, the last (least useful) first, and never cut one in the middle', () => {
    expect(fitHints(hints, 60)).toBe('j/k move · Enter send the question · Tab next pane · q quit');
    expect(fitHints(hints, 40)).toBe('j/k move · Enter send the question');
    expect(fitHints(hints, 30)).toBe('j/k move · Tab next pane');
    expect(fitHints(hints, 19)).toBe('j/k move · q quit');
    expect(fitHints(hints, 5)).toBe('');
  });
});
