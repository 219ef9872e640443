import { createOperationDescriptor } from 'relay-runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ShellThemeQueryWithText from '../shell/__generated__/ShellThemeQuery.graphql.ts';
import ShellThemeQuery from '../shell/__generated__/ShellThemeQuery$parameters.ts';
import { appEnvironment } from '../relay/environment.ts';
import { loadScreenData } from './queries.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const answer = { data: { viewer: { id: 'VXNlcjox', settings: { darkMode: true } } } };

/** A fetch whose answer arrives when the test says so. */
function heldFetch() {
  let send: (body: unknown) => void = () => {};
  const fetch = vi.fn(
    () =>
      new Promise<Response>((resolve) => {
        send = (body) => resolve(new Response(JSON.stringify(body)));
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return { fetch, send: (body: unknown) => send(body) };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

// The screen's query artifact registers itself when its code arrives, as the screen's chunk does.
void ShellThemeQueryWithText;

describe('a route waiting for its screen data (the screen then shows in one paint)', () => {
  it('gives up after a while, so a slow answer shows the screen’s placeholders', async () => {
    vi.useFakeTimers();
    heldFetch();
    const loading = loadScreenData(ShellThemeQuery, {});
    expect(await settled(loading)).toBe(false);
    await vi.advanceTimersByTimeAsync(399);
    expect(await settled(loading)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(loading)).toBe(true);
    (await loading).dispose();
  });

  it('waits for an answer the store does not hold, then the store holds it', async () => {
    const network = heldFetch();
    const loading = loadScreenData(ShellThemeQuery, {});
    expect(await settled(loading)).toBe(false);
    network.send(answer);
    await vi.waitFor(async () => expect(await settled(loading)).toBe(true));
    const operation = createOperationDescriptor(ShellThemeQueryWithText, {});
    expect(appEnvironment().check(operation).status).toBe('available');
  });

  it('does not wait when the store holds the data already: the screen shows it and refreshes', async () => {
    const network = heldFetch();
    const loading = loadScreenData(ShellThemeQuery, {});
    expect(await settled(loading)).toBe(true);
    // The refresh is still asked for.
    expect(network.fetch).toHaveBeenCalledTimes(1);
  });
});
