import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { useStickyStart } from '../../components/panes/sticky-window.js';

function Probe({ cursor, height }: { cursor: number; height: number }) {
  return <Text>{`start ${useStickyStart(100, cursor, height, `80x${height}`)}`}</Text>;
}

describe('the sticky window', () => {
  it('moves only as far as the cursor needs', () => {
    const r = render(<Probe cursor={0} height={10} />);
    r.rerender(<Probe cursor={12} height={10} />);
    expect(r.lastFrame()).toBe('start 3');
    r.rerender(<Probe cursor={8} height={10} />);
    expect(r.lastFrame()).toBe('start 3');
    r.unmount();
  });

  it('shows the same rows after a resize away and back', () => {
    const r = render(<Probe cursor={0} height={10} />);
    r.rerender(<Probe cursor={9} height={10} />);
    expect(r.lastFrame()).toBe('start 0');
    // Smaller: the window moves to keep row 9 in sight; back at the first size it is where it was.
    r.rerender(<Probe cursor={9} height={7} />);
    expect(r.lastFrame()).toBe('start 3');
    r.rerender(<Probe cursor={9} height={10} />);
    expect(r.lastFrame()).toBe('start 0');
    r.unmount();
  });
});
