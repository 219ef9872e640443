import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, Toaster } from '../../ui/toast.tsx';
import { AUTO_SAVE_DELAY_MS, GalleryNotes, UNSAVED_NOTES } from './GalleryNotes.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  act(() => dismissToast());
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A parent that, like the Relay store, hands the saved notes back down once a save succeeded. */
function Editor({ autoSave, save }: { autoSave: boolean; save: (notes: string | null) => Promise<void> }) {
  return (
    <>
      <GalleryNotes savedNotes="" canEdit autoSave={autoSave} save={save} />
      <Toaster />
    </>
  );
}

const notes = () => screen.getByRole('textbox', { name: 'Notes' }) as HTMLTextAreaElement;
const type = (text: string) => fireEvent.change(notes(), { target: { value: text } });
const settle = () => act(async () => {});

describe('gallery notes with Auto Save on', () => {
  it('saves once, a moment after typing stops, and says Saved quietly', async () => {
    const save = vi.fn(async () => {});
    render(<Editor autoSave save={save} />);
    expect(screen.queryByRole('button', { name: 'Save Notes' })).toBeNull();

    type('Gate');
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS / 2));
    type('Gate code 4711');
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS - 1));
    expect(save).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    await settle();
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith('Gate code 4711');
    expect(screen.getByRole('status').textContent).toBe('Saved');
    // Quiet: no toast for an automatic save.
    expect(screen.queryByText('Notes saved.')).toBeNull();
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS * 5));
    await settle();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('shows an error toast when saving fails, and tries again only after more typing', async () => {
    const save = vi.fn(async () => {
      throw new Error('Failed to update gallery. Please try again.');
    });
    render(<Editor autoSave save={save} />);
    type('Parking behind the warehouse');
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS));
    await settle();
    expect(save).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Failed to update gallery. Please try again.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Not saved');

    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS * 5));
    await settle();
    expect(save).toHaveBeenCalledTimes(1);

    type('Parking behind the warehouse, gate B');
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS));
    await settle();
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('keeps what the user typed when a save answers with older text', async () => {
    let finish: () => void = () => {};
    const save = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { rerender } = render(<GalleryNotes savedNotes="" canEdit autoSave save={save} />);
    type('Power');
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS));
    type('Power at the back door');
    await act(async () => finish());
    rerender(<GalleryNotes savedNotes="Power" canEdit autoSave save={save} />);
    expect(notes().value).toBe('Power at the back door');
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS));
    await settle();
    expect(save).toHaveBeenLastCalledWith('Power at the back door');
  });
});

describe('gallery notes with Auto Save off', () => {
  it('saves only with the Save Notes button', async () => {
    const save = vi.fn(async () => {});
    render(<Editor autoSave={false} save={save} />);
    const button = screen.getByRole('button', { name: 'Save Notes' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    type('Best light after 4 pm');
    act(() => vi.advanceTimersByTime(AUTO_SAVE_DELAY_MS * 10));
    expect(save).not.toHaveBeenCalled();
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await settle();
    expect(save).toHaveBeenCalledWith('Best light after 4 pm');
    expect(screen.getByText('Notes saved.')).toBeTruthy();
  });

  it('warns before leaving with unsaved notes, and not once they are saved', () => {
    const { rerender } = render(
      <>
        <GalleryNotes savedNotes="" canEdit autoSave={false} save={async () => {}} />
        <a href="/tasks">Tasks</a>
      </>,
    );
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);

    type('Gate code 4711');
    expect(unload()).toBe(true);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const link = screen.getByRole('link', { name: 'Tasks' });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(click);
    expect(confirm).toHaveBeenCalledWith(UNSAVED_NOTES);
    expect(click.defaultPrevented).toBe(true);

    rerender(
      <>
        <GalleryNotes savedNotes="Gate code 4711" canEdit autoSave={false} save={async () => {}} />
        <a href="/tasks">Tasks</a>
      </>,
    );
    expect(unload()).toBe(false);
  });
});
