import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Arrivals } from './arrivals.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled after `ms` of (fake) time. */
async function settledWithin(promise: Promise<unknown>, ms: number) {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('Arrivals', () => {
  it('is quiet at once when no bytes arrived lately', async () => {
    const arrivals = new Arrivals();
    vi.advanceTimersByTime(1_000);
    expect(await settledWithin(arrivals.quiet({ quietMs: 150, maxWaitMs: 3_000 }), 0)).toBe(true);
  });

  it('waits while bytes arrive, and for the pause after the last upload ends', async () => {
    const arrivals = new Arrivals();
    arrivals.add('a');
    arrivals.add('b');
    const quiet = arrivals.quiet({ quietMs: 150, maxWaitMs: 3_000 });
    expect(await settledWithin(quiet, 500)).toBe(false);
    arrivals.delete('a');
    expect(await settledWithin(quiet, 500)).toBe(false);
    arrivals.delete('b');
    expect(await settledWithin(quiet, 100)).toBe(false);
    expect(await settledWithin(quiet, 60)).toBe(true);
  });

  it('gives up waiting after maxWaitMs when uploads keep arriving', async () => {
    const arrivals = new Arrivals();
    arrivals.add('a');
    const quiet = arrivals.quiet({ quietMs: 150, maxWaitMs: 3_000 });
    expect(await settledWithin(quiet, 2_900)).toBe(false);
    expect(await settledWithin(quiet, 200)).toBe(true);
    expect(arrivals.has('a')).toBe(true);
  });
});
