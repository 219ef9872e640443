import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyDialog } from './lazyDialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A dialog with state of its own. */
function Counter({ open }: { open: boolean }) {
  const [clicks, setClicks] = useState(0);
  if (!open) return null;
  return (
    <button type="button" onClick={() => setClicks((n) => n + 1)}>
      clicked {clicks}
    </button>
  );
}

/** The dialog made lazy, with a count of how often its module was asked for. */
function fixture() {
  const loads = { count: 0 };
  const Lazy = lazyDialog(
    async () => {
      loads.count += 1;
      return Counter;
    },
    (props: { open: boolean }) => props.open,
  );
  return { loads, Lazy };
}

describe('lazyDialog', () => {
  it('loads nothing while the screen shows, then fetches the code once the browser is idle', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
    const { loads, Lazy } = fixture();
    render(<Lazy open={false} />);
    expect(loads.count).toBe(0);
    expect(idle).toHaveLength(1);
    await act(async () => idle[0]?.());
    expect(loads.count).toBe(1);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("waits for the page's load (its first pictures) before asking the idle browser", async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    try {
      const { loads, Lazy } = fixture();
      render(<Lazy open={false} />);
      expect(idle).toHaveLength(0);
      readyState.mockReturnValue('complete');
      window.dispatchEvent(new Event('load'));
      expect(idle).toHaveLength(1);
      await act(async () => idle[0]?.());
      expect(loads.count).toBe(1);
    } finally {
      readyState.mockRestore();
    }
  });

  it('shows the dialog when it opens, and keeps its state when it closes and opens again', async () => {
    vi.stubGlobal('requestIdleCallback', () => 0);
    const { Lazy } = fixture();
    const view = render(<Lazy open />);
    const button = await screen.findByRole('button', { name: 'clicked 0' });
    act(() => button.click());
    view.rerender(<Lazy open={false} />);
    expect(screen.queryByRole('button')).toBeNull();
    view.rerender(<Lazy open />);
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
  });
});
