import { useState } from 'react';

/**
 * The state of a form that sends once and shows the answer: `pending` while it goes, the `error`
 * under it (the failure's message, or `fallback`), and `done`, the server's message once it went.
 */
export function useSend(fallback: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  /** Sends with `call`, which answers the message to show. */
  async function send(call: () => Promise<string>) {
    setPending(true);
    setError(null);
    try {
      setDone(await call());
    } catch (e) {
      setError(e instanceof Error ? e.message : fallback);
    }
    setPending(false);
  }

  return { pending, error, setError, done, setDone, send };
}
