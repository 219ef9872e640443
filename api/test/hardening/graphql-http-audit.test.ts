import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, testApp, type TestApp } from '../harness.ts';

// graphql-http's audit of the GraphQL over HTTP spec, run against the app on a real Node server (the
// path GraphQL answers take there differs from app.request's). Every audit must pass, the SHOULDs too.
// Requests carry a session: the endpoint answers only people who are signed in.

async function listen(app: TestApp) {
  const server = serve({ fetch: (req, env) => app.fetch(req, env as never), port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.each(['development', 'production'] as const)('GraphQL over HTTP, %s', (mode) => {
  let app: TestApp;
  let cookie: string;
  let origin: string;
  let server: Awaited<ReturnType<typeof listen>>['server'];
  beforeAll(async () => {
    app = await testApp(
      mode === 'production' ? { NODE_ENV: 'production', PUBLIC_URL: 'https://scout.example.com' } : {},
    );
    cookie = (await signedInUser(app)).cookie;
    ({ server, origin } = await listen(app));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });

  const signedIn = (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    return fetch(input, { ...init, headers });
  };

  it.skipIf(mode === 'production')('passes every audit of graphql-http', async () => {
    const failures: string[] = [];
    for (const audit of serverAudits({ url: `${origin}/graphql`, fetchFn: signedIn })) {
      const result = await audit.fn();
      if (result.status !== 'ok') failures.push(`${audit.name}: ${result.status}: ${result.reason}`);
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['no query', {}, 'Must provide query string.'],
    [
      'a query that is not a string',
      { query: { viewer: 1 } },
      'Expected "query" param to be a string, but given object.',
    ],
    ['a number for a query', { query: 7 }, 'Expected "query" param to be a string, but given number.'],
    ['only variables', { variables: {} }, 'Must provide query string.'],
  ])('answers 400 with what is wrong to a request with %s', async (_what, body, message) => {
    const response = await signedIn(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { errors?: { message: string }[] };
    expect(answer.errors?.map((e) => e.message)).toEqual([message]);
  });
});
