import { expect } from 'vitest';
import type { TestApp } from './harness.ts';

/** Opens a GraphQL subscription over server-sent events with this cookie, as the browser does. */
export function subscribeOverSse(
  app: Pick<TestApp, 'request'>,
  cookie: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
) {
  return app.request('/graphql', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query, variables }),
  });
}

/**
 * Reads a GraphQL-over-SSE response (`accept: text/event-stream`) as a browser does: each `data:`
 * block is one result. `until(enough)` reads on until `enough(results)` holds.
 */
export function sseResults<T = unknown>(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const results: T[] = [];
  let buffer = '';
  return {
    results,
    /** The next chunk only (the server's opening ping, for one). */
    read: () => reader.read(),
    async until(enough: (results: T[]) => boolean) {
      while (!enough(results)) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('');
          buffer = buffer.slice(end + 2);
          if (data) results.push(JSON.parse(data) as T);
        }
      }
      return results;
    },
    close: () => reader.cancel(),
  };
}

/**
 * A subscription over server-sent events that opened (200) and listens: the first read takes the
 * server's opening ping, after which the server delivers events.
 */
export async function listeningOverSse<T = unknown>(...subscription: Parameters<typeof subscribeOverSse>) {
  const response = await subscribeOverSse(...subscription);
  expect(response.status).toBe(200);
  const stream = sseResults<T>(response);
  await stream.read();
  return stream;
}
