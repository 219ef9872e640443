import { useCallback, useState } from 'react';
import { isUnauthorizedError } from '../../lib/unauthorized.ts';
import { failureMessage, NotAdminError } from './adminApi.ts';

/**
 * What a console section shows when reading it failed (`failed`, or null), and the handler of that
 * failure: someone no longer an administrator leaves the console, a lost session is dealt with by the
 * sign-in, anything else shows the server's message or `fallback`.
 */
export function useLoadFailure(onNotAdmin: () => void, fallback: string) {
  const [failed, setFailed] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const failedToLoad = useCallback(
    (error: unknown) => {
      if (error instanceof NotAdminError) onNotAdmin();
      else if (!isUnauthorizedError(error)) setFailed(failureMessage(error, fallback));
    },
    [onNotAdmin, fallback],
  );
  /** Reads the next page with `read`, `loadingMore` meanwhile. */
  async function readMore(read: () => Promise<void>) {
    setLoadingMore(true);
    try {
      await read();
    } catch (error) {
      failedToLoad(error);
    } finally {
      setLoadingMore(false);
    }
  }
  return { failed, setFailed, failedToLoad, loadingMore, readMore };
}

/**
 * For an effect: `read`'s answer goes to `show` and its failure to `failed`, unless the returned
 * cleanup ran first (a newer read replaced it, or the section closed).
 */
export function whileCurrent<T>(read: Promise<T>, show: (answer: T) => void, failed: (error: unknown) => void) {
  let current = true;
  read.then(
    (answer) => current && show(answer),
    (error) => current && failed(error),
  );
  return () => {
    current = false;
  };
}
