import { useSyncExternalStore } from 'react';
import { serverPage } from './serverPage.ts';

// "Now" for times shown relative to it ("5m ago", "Overdue by 3 hours"), the same on the server
// and in the browser's first render of the server's page (issue 53, item 14).
//
// A page rendered on the server shows its relative times as of when its answers were read. The
// browser took it over with that time pinned (lib/format.ts pinNow), released by the app's first
// effect. But React hydrates each Suspense boundary (a screen's content) after the part around it
// has committed, so the pin was often gone by then: a time that had crossed a minute ("Just now"
// then "1m ago") no longer matched the server's text, React error #418, and that part of the page
// was thrown away and rendered again. useSyncExternalStore hydrates with its server snapshot,
// wherever and whenever the component hydrates, then renders again with the current time.

const TICK_MS = 30_000;
/** A snapshot older than this is refreshed on the next read: the first render after a quiet spell is current. */
const STALE_MS = 5_000;

let current = new Date();
let renderedAt: Date | undefined;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** The time the server read the page's answers (main.tsx): what the page's first render shows times as of. */
export function setRenderedAt(at: Date | undefined) {
  renderedAt = at;
}

function snapshot() {
  if (Math.abs(Date.now() - current.getTime()) > STALE_MS) current = new Date();
  return current;
}

function serverSnapshot() {
  return serverPage()?.now ?? renderedAt ?? snapshot();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => {
    current = new Date();
    for (const notify of listeners) notify();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The time to show relative times against: on the server and while hydrating the server's page,
 * when its answers were read; otherwise the current time, refreshed every half minute.
 */
export function useNow(): Date {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}
