import { type ComponentType, lazy, Suspense, useEffect, useRef } from 'react';

/**
 * Runs `work` once the page has loaded (its pictures included) and the browser has nothing else to
 * do: the screen's first thumbnails do not share the connection with code for dialogs.
 */
function whenIdle(work: () => void) {
  const idle = () => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 5_000 });
    else setTimeout(work, 1_000);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/**
 * A dialog (or overlay) whose code loads when it first opens instead of with its screen: no screen
 * shows a dialog on its first paint, and on a phone over mobile data every kilobyte before that
 * paint counts (Headless UI's dialog, fields and lists, the dialogs themselves). The code is fetched
 * once the browser is idle after the screen shows, so a click seldom waits for it. Once opened it
 * stays mounted, closed, as a dialog that was always there does (its state is kept).
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  let fetched = false;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per dialog, at module level, as React.lazy is
  return function LazyDialog(props: P) {
    const opened = useRef(false);
    if (isOpen(props)) opened.current = true;
    useEffect(() => {
      if (fetched) return;
      fetched = true;
      // A failed fetch here is tried again, and reported, when the dialog opens.
      whenIdle(() => load().catch(() => (fetched = false)));
    }, []);
    if (!opened.current) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}
