import { act } from '@testing-library/react';
import { Suspense, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatNotificationTime, pinNow } from './format.ts';
import { setRenderedAt, useNow } from './now.ts';

// Issue 53, item 14: React error #418 on a first dashboard load. The server shows relative times as
// of when it read the page's answers; the browser hydrates a screen's Suspense boundary after the
// app around it has committed and released the pinned time, so a time that crossed a minute in
// between ("Just now" on the server, "1m ago" in the browser) did not match.

const readAt = new Date('2026-12-07T10:00:00Z');
const created = new Date(readAt.getTime() - 50_000).toISOString();

function PinnedAgo() {
  return <span>{formatNotificationTime(created)}</span>;
}

function Ago() {
  const now = useNow();
  return <span>{formatNotificationTime(created, now)}</span>;
}

/** The app's shape: its first effect lets go of the pinned time (App.tsx), the screen is in a boundary. */
function Page({ children }: { children: React.ReactNode }) {
  useEffect(() => pinNow(undefined), []);
  return (
    <main>
      <Suspense fallback={<p>Loading</p>}>{children}</Suspense>
    </main>
  );
}

/** Renders on "the server" as of readAt, then hydrates in "the browser" 30 s later; what React reported. */
async function serverThenBrowser(screen: React.ReactNode) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(readAt);
  pinNow(readAt);
  setRenderedAt(readAt);
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Page>{screen}</Page>);
  document.body.append(container);
  const server = container.textContent;
  vi.setSystemTime(new Date(readAt.getTime() + 30_000));
  const errors: unknown[] = [];
  await act(async () => {
    hydrateRoot(container, <Page>{screen}</Page>, {
      onRecoverableError: (error) => errors.push(error),
    });
  });
  const browser = container.textContent;
  container.remove();
  return { server, browser, errors };
}

afterEach(() => {
  pinNow(undefined);
  setRenderedAt(undefined);
  vi.useRealTimers();
});

describe('relative times on a page rendered on the server', () => {
  it('mismatched when the pinned time was let go before the boundary hydrated (the cause)', async () => {
    const { server, errors } = await serverThenBrowser(<PinnedAgo />);
    expect(server).toBe('Just now');
    expect(errors.length).toBeGreaterThan(0);
  });

  it('hydrate with the time the server rendered with, then show the current time', async () => {
    const { server, browser, errors } = await serverThenBrowser(<Ago />);
    expect(server).toBe('Just now');
    expect(errors).toEqual([]);
    expect(browser).toBe('1m ago');
  });
});
