import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { type HttpBindings, serve } from '@hono/node-server';
import { type Client, createClient } from 'graphql-ws';
import pino, { type Logger } from 'pino';
import WebSocket from 'ws';
import { type App, createApp } from '../src/app.ts';
import { attachSubscriptions } from '../src/live/websocket.ts';
import { type TestApp, testApp } from './harness.ts';

/** An app listening on a real port, with WebSocket subscriptions attached as main.ts does. */
export async function listen(app: App, options: { sessionCheckMs?: number } = {}) {
  const server = serve({ fetch: (req, env) => app.fetch(req, env as HttpBindings), port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  const subscriptions = attachSubscriptions(server, app, options);
  const { port } = server.address() as AddressInfo;
  return {
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/graphql`,
    async close() {
      await subscriptions.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    },
  };
}

export type Listening = Awaited<ReturnType<typeof listen>>;

/** A test file's (or block's) own app, listening; closing the server closes the app after it. */
export async function listeningApp(...options: Parameters<typeof testApp>) {
  const app = await testApp(...options);
  const server = await listen(app);
  const close = async () => {
    await server.close();
    await app.close();
  };
  return [app, { ...server, close }] as const;
}

/**
 * A second instance of `first`'s app: same database and secret (so the same sessions are valid),
 * with its own pub/sub and job workers. Closing it stops everything it started (its job queue
 * holds a connection of its own: left open, the pool's end waited for it for ever) and leaves a
 * shared embedded database to `first`.
 */
export async function secondInstance(first: TestApp, env: { redisUrl?: string; logger?: Logger } = {}) {
  const source = first.databaseSource;
  return createApp(
    { ...first.config, redisUrl: env.redisUrl ?? first.config.redisUrl },
    {
      database: source.kind === 'pglite' ? { kind: 'pglite', client: borrowed(source.client) } : source,
      logger: env.logger ?? pino({ level: 'silent' }),
    },
  );
}

/** The embedded database as one instance sees it: it may use it, but its close leaves it open. */
function borrowed(client: PGlite): PGlite {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'close') return async () => {};
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A graphql-ws client that connects like a browser with this cookie (and/or a token). */
export function wsClient(url: string, auth: { cookie?: string; token?: string } = {}) {
  class BrowserSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers: auth.cookie ? { cookie: auth.cookie } : {} });
    }
  }
  const closes: number[] = [];
  const client = createClient({
    url,
    webSocketImpl: BrowserSocket,
    connectionParams: auth.token ? { token: auth.token } : undefined,
    retryAttempts: 0,
    lazy: true,
    on: { closed: (event) => closes.push((event as { code: number }).code) },
  });
  return Object.assign(client, { closes });
}

/** Collects a subscription's results; `next(n)` waits until n have arrived. */
export function collect<T = Record<string, unknown>>(client: Client, query: string, variables = {}) {
  const results: { data?: T; errors?: readonly { message: string }[] }[] = [];
  let failure: unknown;
  let completed = false;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const unsubscribe = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        results.push(value as (typeof results)[number]);
        wake();
      },
      error: (error) => {
        failure = error;
        wake();
      },
      complete: () => {
        completed = true;
        wake();
      },
    },
  );
  return {
    results,
    get failure() {
      return failure;
    },
    get completed() {
      return completed;
    },
    unsubscribe,
    async next(count: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (results.length < count) {
        if (failure !== undefined) throw new Error(`subscription failed: ${JSON.stringify(failure)}`);
        if (completed) throw new Error('subscription completed early');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for ${count} results, got ${results.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, left);
        });
      }
      return results;
    },
    /** Waits until the subscription ends with an error (or closes), returning what ended it. */
    async ended(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (failure === undefined && !completed && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, deadline - Date.now());
        });
      }
      return { failure, completed };
    },
  };
}
