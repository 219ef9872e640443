import { type ReactNode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

/**
 * Mounts the app as a transition. A plain first render holds the main thread for the whole tree in
 * one task; as a transition React yields to the browser every few milliseconds, so on a phone's
 * slower CPU input and painting are not blocked for hundreds of milliseconds (Lighthouse's total
 * blocking time). Until the tree commits, what the container already shows (index.html's loading
 * screen) stays up.
 */
export function renderInSlices(container: Element, app: ReactNode) {
  const root = createRoot(container);
  startTransition(() => root.render(app));
  return root;
}

/**
 * Takes over a page rendered on the server as a transition, for the same reason: hydrated at once,
 * the whole tree is one task, which on a phone blocked the main thread for hundreds of
 * milliseconds after the screen had painted.
 */
export function hydrateInSlices(container: Element, app: ReactNode) {
  startTransition(() => {
    hydrateRoot(container, app);
  });
}
