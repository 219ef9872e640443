import { type GraphQLResponse, Observable, type RequestParameters, type Variables } from 'relay-runtime';
import { errorFromResponse, isUnauthorizedError } from '../lib/http.ts';
import { handleUnauthorized } from '../lib/unauthorized.ts';
import { operationBody } from './persisted.ts';

/**
 * GraphQL subscriptions over server-sent events (the server's `accept: text/event-stream` mode):
 * plain fetch, the session cookie, no extra client library. Each `data:` block is one payload.
 */
export function subscribeOverSSE(operation: RequestParameters, variables: Variables): Observable<GraphQLResponse> {
  return Observable.create((sink) => {
    const controller = new AbortController();
    (async () => {
      const response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'include',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(operationBody(operation, variables)),
      });
      if (!response.ok || !response.body) {
        const error = await errorFromResponse(response);
        if (isUnauthorizedError(error)) handleUnauthorized();
        throw error;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
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
          const data = lines
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('');
          if (data) sink.next(JSON.parse(data) as GraphQLResponse);
          end = buffer.indexOf('\n\n');
        }
      }
      sink.complete();
    })().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      sink.error(error instanceof Error ? error : new Error(String(error)));
    });
    return () => controller.abort();
  });
}
