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

describe('answers the page came with', () => {
  /** A fresh copy of the module, on a page that carries `answers` as the server writes them. */
  async function pageCarrying(answers: string) {
    document.body.innerHTML = `<script type="application/json" id="scoutbase-answers">${answers}</script>`;
    vi.resetModules();
    return import('./prefetch.ts');
  }

  it('hands a carried answer over once without asking the network, and asks for the rest', async () => {
    const fetch = countingFetch();
    const page = await pageCarrying(
      '{"abc {\\"id\\":\\"R2FsbGVyeTox\\"}":{"data":{"gallery":{"name":"\\u003c/script> Loft"}}},"def {}":{"data":{"n":1}}}',
    );
    expect(document.getElementById('scoutbase-answers')).not.toBeNull();
    page.prefetchOperation('abc', { id: 'R2FsbGVyeTox' });
    page.prefetchOperation('xyz', {});
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body)).doc_id).toBe('xyz');
    // Read once, then out of the page: nothing else finds it there.
    expect(document.getElementById('scoutbase-answers')).toBeNull();
    expect(page.takeCarried('abc', { id: 'R2FsbGVyeTox' })).toEqual({
      data: { gallery: { name: '</script> Loft' } },
    });
    expect(page.takeCarried('def', { id: 1 })).toBeUndefined();
    // Asked again (a screen read again), it goes to the network.
    expect(page.takeCarried('abc', { id: 'R2FsbGVyeTox' })).toBeUndefined();
    page.prefetchOperation('abc', { id: 'R2FsbGVyeTox' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('drops what the page carried once a mutation is sent: it may predate the change', async () => {
    const fetch = countingFetch();
    const page = await pageCarrying('{"def {}":{"data":{"n":1}}}');
    page.forgetPrefetched();
    page.prefetchOperation('def', {});
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(page.takeCarried('def', {})).toBeUndefined();
  });

  it('asks the network for everything when the block is cut short', async () => {
    const fetch = countingFetch();
    const page = await pageCarrying('{"def {}":{"data"');
    page.prefetchOperation('def', {});
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(page.takeCarried('def', {})).toBeUndefined();
  });
});

describe('the network layer and the answers the page came with', () => {
  it("hands a carried answer to Relay in the same turn, so the screen's first render has its data", async () => {
    const fetch = countingFetch();
    const { default: ShellThemeQuery } = await import('../shell/__generated__/ShellThemeQuery.graphql.ts');
    const id = ShellThemeQuery.params.id as string;
    const answer = { data: { viewer: { id: 'VXNlcjox', settings: { darkMode: true } } } };
    document.body.innerHTML = `<script type="application/json" id="scoutbase-answers">${JSON.stringify({ [`${id} {}`]: answer })}</script>`;
    vi.resetModules();
    const { createEnvironment: freshEnvironment } = await import('./environment.ts');
    const { loadQuery } = await import('react-relay/hooks');
    const { createOperationDescriptor } = await import('relay-runtime');
    const environment = freshEnvironment(() => {
      throw new Error('no live connection here');
    });
    loadQuery(environment, ShellThemeQuery, {}, { fetchPolicy: 'store-and-network' });
    // No await in between: the store holds the answer already.
    expect(environment.check(createOperationDescriptor(ShellThemeQuery, {})).status).toBe('available');
    expect(fetch).not.toHaveBeenCalled();
  });
});
