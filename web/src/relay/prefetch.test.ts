import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetchOperation, takePrefetched } from './prefetch.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function countingFetch() {
  const fetch = vi.fn(async () => new Response('{"data":{}}'));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('prefetched screen queries', () => {
  it('sends the operation once and hands its answer over once', async () => {
    const fetch = countingFetch();
    prefetchOperation('abc', { sort: 'NEWEST' });
    prefetchOperation('abc', { sort: 'NEWEST' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ doc_id: 'abc', variables: { sort: 'NEWEST' } });
    expect(takePrefetched('abc', { sort: 'DUE_DATE' })).toBeNull();
    const answer = takePrefetched('abc', { sort: 'NEWEST' });
    expect(await (await answer)?.json()).toEqual({ data: {} });
    expect(takePrefetched('abc', { sort: 'NEWEST' })).toBeNull();
  });

  it('lets an answer grow stale: after ten seconds Relay asks afresh', () => {
    countingFetch();
    vi.useFakeTimers();
    prefetchOperation('old', {});
    vi.advanceTimersByTime(10_001);
    expect(takePrefetched('old', {})).toBeNull();
  });
});
