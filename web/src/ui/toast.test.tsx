import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, Toaster, toast } from './toast.tsx';

afterEach(() => {
  act(() => dismissToast());
  cleanup();
  vi.useRealTimers();
});

describe('toasts', () => {
  it('shows one toast at a time: a new one replaces the old', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Task Created', description: 'Task created successfully!' });
    });
    expect(screen.getByText('Task Created')).toBeTruthy();
    act(() => {
      toast({ title: 'Error', description: 'Failed to create task. Please try again.', variant: 'destructive' });
    });
    expect(screen.queryByText('Task Created')).toBeNull();
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(screen.getByRole('alert').dataset.variant).toBe('destructive');
  });

  it('closes by itself after its duration, or when dismissed', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Saved', duration: 1000 });
    });
    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(screen.queryByText('Saved')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Saved')).toBeNull();

    act(() => {
      toast({ title: 'Again', duration: 0 });
    });
    act(() => {
      screen.getByRole('button', { name: 'Close notification' }).click();
    });
    expect(screen.queryByText('Again')).toBeNull();
  });
});
