import { type GraphQLResponse, Observable, type RequestParameters, type Variables } from 'relay-runtime';
import { errorFromResponse, isUnauthorizedError } from '../lib/http.ts';
import { handleUnauthorized } from '../lib/unauthorized.ts';
import { operationBody } from './persisted.ts';

/** Backoff between reconnect attempts: 1 s, 2 s, 4 s … up to 10 s, each with jitter. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 10_000;

function backoff(attempt: number) {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  // Jitter, so the tabs of every user of a restarted server do not all come back in one instant.
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

const reconnectListeners = new Set<() => void>();
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Calls `listener` after live updates came back from an interruption (a server restart, a network
 * drop): what changed while away was not heard, so screens read it again. Several subscriptions
 * reconnect together; listeners hear of it once. Returns the unsubscribe function.
 */
export function onLiveReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

function announceReconnect() {
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(() => {
    for (const listener of reconnectListeners) listener();
  }, 250);
}

/** Waits `ms`, or less when the browser comes back online; false if aborted meanwhile. */
function pause(ms: number, signal: AbortSignal) {
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      globalThis.removeEventListener?.('online', onOnline);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const onOnline = () => done(true);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort);
    globalThis.addEventListener?.('online', onOnline);
  });
}

/** An answer worth trying again later (the server restarting, a proxy between instances), not a refusal. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * GraphQL subscriptions over server-sent events (the server's `accept: text/event-stream` mode):
 * plain fetch, the session cookie, no extra client library. Each `data:` block is one payload.
 *
 * A stream that ends without `event: complete` (the server restarted or shut down, the network
 * dropped) is opened again with backoff, or after the server's `retry:` hint; once it is back,
 * onLiveReconnect listeners refetch what may have changed meanwhile. Refusals (signed out, a bad
 * operation) end the subscription with its error.
 */
export function subscribeOverSSE(operation: RequestParameters, variables: Variables): Observable<GraphQLResponse> {
  return Observable.create((sink) => {
    const controller = new AbortController();
    const { signal } = controller;
    (async () => {
      let attempt = 0;
      let hinted: number | undefined;
      let interrupted = false;
      while (!signal.aborted) {
        let response: Response | undefined;
        try {
          response = await fetch('/graphql', {
            method: 'POST',
            credentials: 'include',
            signal,
            headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
            body: JSON.stringify(operationBody(operation, variables)),
          });
        } catch {
          if (signal.aborted) return;
          // The server is not there (restarting) or the network is down: try again.
          response = undefined;
        }
        if (response && (!response.ok || !response.body)) {
          if (!retryable(response.status)) {
            const error = await errorFromResponse(response);
            if (isUnauthorizedError(error)) handleUnauthorized();
            throw error;
          }
          response = undefined;
        }
        if (response?.body) {
          if (interrupted) announceReconnect();
          interrupted = false;
          attempt = 0;
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          try {
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              buffer += decoder.decode(value, { stream: true });
              let end = buffer.indexOf('\n\n');
              while (end >= 0) {
                const block = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                const lines = block.split('\n');
                if (lines.some((l) => l.startsWith('event: complete'))) {
                  sink.complete();
                  return;
                }
                const retry = lines.find((l) => l.startsWith('retry:'));
                if (retry) {
                  const ms = Number(retry.slice(6).trim());
                  if (Number.isFinite(ms) && ms >= 0) hinted = ms;
                }
                const data = lines
                  .filter((l) => l.startsWith('data:'))
                  .map((l) => l.slice(5).trim())
                  .join('');
                if (data) sink.next(JSON.parse(data) as GraphQLResponse);
                end = buffer.indexOf('\n\n');
              }
            }
          } catch {
            // The connection broke mid-stream: the same as an ended stream.
            if (signal.aborted) return;
          }
        }
        if (signal.aborted) return;
        interrupted = true;
        // The server's hint for the first try (it knows it is restarting), backoff after that.
        const wait = attempt === 0 && hinted !== undefined ? hinted : backoff(attempt);
        attempt++;
        if (!(await pause(wait, signal))) return;
      }
    })().catch((error: unknown) => {
      if (signal.aborted) return;
      sink.error(error instanceof Error ? error : new Error(String(error)));
    });
    return () => controller.abort();
  });
}
