import { type Client, createClient } from 'graphql-ws';
import { type GraphQLResponse, Observable, type RequestParameters, type Variables } from 'relay-runtime';
import { handleUnauthorized } from '../lib/unauthorized.ts';
import { operationBody } from './persisted.ts';

/**
 * Every live update of a tab (the bell, access changes, processed photos, the assistant's reply)
 * shares one WebSocket (graphql-ws). A stream per subscription, as server-sent events over
 * HTTP/1.1, held one of the browser's six connections to the server each: with the bell, the
 * shell and a gallery open, the thumbnails of a grid queued behind a single free connection, and
 * a second tab had none.
 */

/** Backoff between reconnect attempts: 1 s, 2 s, 4 s … up to 10 s, each with jitter. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 10_000;

export function backoff(attempt: number) {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  // Jitter, so the tabs of every user of a restarted server do not all come back in one instant.
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** The server's close codes for a socket without a (valid) session: sign in again, do not retry. */
const SIGNED_OUT = new Set([4401, 4403]);

const reconnectListeners = new Set<() => void>();
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Calls `listener` after live updates came back from an interruption (a server restart, a network
 * drop): what changed while away was not heard, so screens read it again. Returns the unsubscribe
 * function.
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

function closeCode(event: unknown) {
  return typeof event === 'object' && event !== null && 'code' in event ? Number(event.code) : undefined;
}

let client: Client | undefined;
/** Subscriptions running now: a close while some run is an interruption, not the lazy close. */
let running = 0;
let interrupted = false;

function liveClient(): Client {
  if (client) return client;
  // Lazy: the socket opens with the first subscription and closes a moment after the last one
  // ends, so a signed-out page holds none.
  const created = createClient({
    url: () => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
    lazy: true,
    lazyCloseTimeout: 3_000,
    retryAttempts: Number.POSITIVE_INFINITY,
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, backoff(retries))),
    // A socket that fails to open (the server is restarting) is tried again like a dropped one.
    shouldRetry: (event) => !SIGNED_OUT.has(closeCode(event) ?? 0),
    on: {
      connected: () => {
        if (interrupted) announceReconnect();
        interrupted = false;
      },
      closed: (event) => {
        if (SIGNED_OUT.has(closeCode(event) ?? 0)) {
          // This client is done: the next subscription (after signing in again) makes a new one.
          if (client === created) client = undefined;
          handleUnauthorized();
          return;
        }
        if (running > 0) interrupted = true;
      },
    },
  });
  client = created;
  return created;
}

/**
 * Relay's subscribe function: the operation goes by its persisted id (the production server runs
 * nothing else), with an empty `query`, which graphql-ws requires to be a string.
 */
export function subscribeLive(operation: RequestParameters, variables: Variables): Observable<GraphQLResponse> {
  return Observable.create((sink) => {
    running++;
    let counted = true;
    const done = () => {
      if (counted) running--;
      counted = false;
    };
    const body = operationBody(operation, variables);
    const dispose = liveClient().subscribe(
      { ...body, query: 'query' in body ? (body.query ?? '') : '' },
      {
        next: (value) => sink.next(value as GraphQLResponse),
        error: (error) => {
          done();
          sink.error(error instanceof Error ? error : new Error(describe(error)));
        },
        complete: () => {
          done();
          sink.complete();
        },
      },
    );
    return () => {
      done();
      dispose();
    };
  });
}

function describe(error: unknown) {
  if (Array.isArray(error)) return error.map((e) => (e as { message?: string }).message ?? String(e)).join('; ');
  const code = closeCode(error);
  return code === undefined ? String(error) : `The live connection closed (${code}).`;
}
