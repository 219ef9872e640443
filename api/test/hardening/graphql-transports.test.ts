import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.ts';
import { signedInUser, type TestApp } from '../harness.ts';
import { type Listening, listeningApp, wsClient } from '../live.ts';
import { sseResults } from '../sse.ts';

// One rule set for GraphQL whatever carries it: the persisted-operations rule of production and the
// depth/cost/alias/token limits answer the same error over HTTP, SSE and WebSocket, and a refused
// operation over a WebSocket is an error for that operation, never the close of the whole socket.

type Answer = { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };

const persistedFile = readConfig({}).persistedOperationsFile;
const persisted = JSON.parse(await readFile(persistedFile, 'utf8')) as Record<string, string>;
const storageQueryId = Object.entries(persisted).find(([, text]) =>
  text.startsWith('query StorageUsageSlotQuery '),
)?.[0];

function postGraphql(app: TestApp, cookie: string, body: Record<string, unknown>, accept: string) {
  return app.request('/graphql', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
}

async function overHttp(app: TestApp, cookie: string, body: Record<string, unknown>): Promise<Answer> {
  return (await (await postGraphql(app, cookie, body, 'application/json')).json()) as Answer;
}

async function overSse(app: TestApp, cookie: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await postGraphql(app, cookie, body, 'text/event-stream');
  const stream = sseResults<Answer>(response);
  const [first] = await stream.until((results) => results.length > 0);
  await stream.close().catch(() => {});
  return first as Answer;
}

/** Runs one operation on an open graphql-ws client; a refusal comes back as its errors. */
function wsRun(client: ReturnType<typeof wsClient>, payload: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve) => {
    const results: Answer[] = [];
    client.subscribe(payload as { query: string }, {
      next: (value) => void results.push(value as Answer),
      error: (error) => {
        // An array is the operation's errors; anything else is the socket closing under it.
        const closed = error as { code?: number; reason?: string };
        const errors = Array.isArray(error) ? error : [{ message: `socket closed ${closed.code} ${closed.reason}` }];
        resolve({ errors: errors as Answer['errors'] });
      },
      complete: () => resolve(results[0] ?? {}),
    });
  });
}

const shape = (answer: Answer) => ({
  data: answer.data ?? null,
  errors: answer.errors?.map((e) => ({ message: e.message, code: e.extensions?.code })),
});

describe('production: only the web app’s operations, on every transport', () => {
  let app: TestApp, server: Listening, cookie: string;
  beforeAll(async () => {
    [app, server] = await listeningApp({ NODE_ENV: 'production' });
    cookie = (await signedInUser(app)).cookie;
  });
  afterAll(() => server.close());

  it('refuses operation text over HTTP, SSE and WebSocket with one error, and the socket stays open', async () => {
    const text = { query: '{ viewer { id } }' };
    const http = shape(await overHttp(app, cookie, text));
    expect(http.errors?.[0]).toEqual({
      message: 'Only the operations of the Scoutbase web app are accepted.',
      code: 'PERSISTED_QUERY_ONLY',
    });
    expect(shape(await overSse(app, cookie, text))).toEqual(http);

    const client = wsClient(server.ws, { cookie });
    expect(shape(await wsRun(client, text))).toEqual(http);
    // Introspection is refused as text already; an unknown id is the other refusal.
    const unknown = { query: '', doc_id: 'feedfacefeedfacefeedfacefeedface' };
    const unknownHttp = shape(await overHttp(app, cookie, unknown));
    expect(unknownHttp.errors?.[0]?.message).toMatch(/not known to the server/);
    expect(shape(await wsRun(client, unknown))).toEqual(unknownHttp);

    // The same socket still runs the web app's operations, by id.
    const ok = await wsRun(client, { query: '', doc_id: storageQueryId });
    expect(ok.errors).toBeUndefined();
    expect((ok.data as { viewer?: { storage?: unknown } }).viewer?.storage).toBeTruthy();
    // The lazy client closes an idle socket itself (1000); the server closed none (4500 before).
    expect(client.closes.filter((code) => code !== 1000)).toEqual([]);
    await client.dispose();
  });
});

describe('limits: the same error on every transport, never a closed socket', () => {
  let app: TestApp, server: Listening, cookie: string;
  beforeAll(async () => {
    [app, server] = await listeningApp();
    cookie = (await signedInUser(app)).cookie;
  });
  afterAll(() => server.close());

  const aliases = `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: viewer { id }`).join(' ')} }`;
  const tokens = `{ viewer { ${'id '.repeat(5000)} } }`;
  const deep = `query { node(id: "x") { ... on Folder { ${'parent { '.repeat(16)}id${' }'.repeat(16)} } } }`;

  it.each([
    ['too many aliases', aliases, /alias/i],
    ['too many tokens', tokens, /token/i],
    ['nested too deeply', deep, /depth/i],
  ])('%s', async (_name, query, pattern) => {
    const http = shape(await overHttp(app, cookie, { query }));
    expect(http.data).toBeNull();
    expect(http.errors?.[0]?.message).toMatch(pattern);
    expect(shape(await overSse(app, cookie, { query }))).toEqual(http);

    const client = wsClient(server.ws, { cookie });
    expect(shape(await wsRun(client, { query }))).toEqual(http);
    // The socket survived: the next operation on it runs.
    const next = await wsRun(client, { query: '{ viewer { id } }' });
    expect(next.errors).toBeUndefined();
    // The lazy client closes an idle socket itself (1000); the server closed none (4500 before).
    expect(client.closes.filter((code) => code !== 1000)).toEqual([]);
    await client.dispose();
  });
});
