import { afterEach, describe, expect, it, vi } from 'vitest';
import { commitMutation } from 'react-relay/hooks';
import DeleteTask from '../screens/tasks/__generated__/TasksScreenDeleteMutation.graphql.ts';
import { createEnvironment } from './environment.ts';
import { forgetPrefetched, prefetchOperation, takePrefetched } from './prefetch.ts';

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
  it('sends the operation and hands its answer over once', async () => {
    const fetch = countingFetch();
    prefetchOperation('abc', { sort: 'NEWEST' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ doc_id: 'abc', variables: { sort: 'NEWEST' } });
    expect(takePrefetched('abc', { sort: 'DUE_DATE' })).toBeNull();
    const answer = takePrefetched('abc', { sort: 'NEWEST' });
    expect(await (await answer)?.json()).toEqual({ data: {} });
    expect(takePrefetched('abc', { sort: 'NEWEST' })).toBeNull();
  });

  it('hands over the answer to the latest ask: a screen read again after a change gets the new data', async () => {
    let answer = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ data: { answer: ++answer } }))),
    );
    prefetchOperation('abc', {});
    prefetchOperation('abc', {});
    expect(await (await takePrefetched('abc', {}))?.json()).toEqual({ data: { answer: 2 } });
    expect(takePrefetched('abc', {})).toBeNull();
  });

  it('forgets every answer once a mutation is sent: they may predate the change', () => {
    countingFetch();
    prefetchOperation('abc', {});
    prefetchOperation('def', { id: 1 });
    forgetPrefetched();
    expect(takePrefetched('abc', {})).toBeNull();
    expect(takePrefetched('def', { id: 1 })).toBeNull();
  });

  it('is told of each mutation by the network layer', async () => {
    countingFetch();
    prefetchOperation('abc', {});
    const environment = createEnvironment();
    await new Promise((resolve) =>
      commitMutation(environment, {
        mutation: DeleteTask,
        variables: { id: 'VGFzazox' },
        onCompleted: resolve,
        onError: resolve,
      }),
    );
    expect(takePrefetched('abc', {})).toBeNull();
  });

  it('lets an answer grow stale: after ten seconds Relay asks afresh', () => {
    countingFetch();
    vi.useFakeTimers();
    prefetchOperation('old', {});
    vi.advanceTimersByTime(10_001);
    expect(takePrefetched('old', {})).toBeNull();
  });
});
