import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { person, randomAddress, signedInUser, signIn, signUpFrom, testApp, type TestApp } from '../harness.ts';

// Small budgets so a test can exhaust them; addresses come from X-Forwarded-For (TRUST_PROXY).
function tight(config: Config): Config {
  const w = { windowSeconds: 60 };
  config.rateLimits = {
    signUp: { perAddress: { limit: 2, ...w } },
    uploadUrls: { perAddress: { limit: 5, ...w }, perUser: { limit: 3, ...w } },
    ai: { perAddress: { limit: 3, ...w }, perUser: { limit: 2, ...w } },
    review: { perAddress: { limit: 2, ...w } },
    reviewWrites: { perAddress: { limit: 3, ...w } },
  };
  return config;
}

const address = randomAddress;

async function expectRefused(response: Response) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(await response.json()).toEqual({ message: 'Too many requests. Please wait a moment and try again.' });
}

function uploadUrl(app: TestApp, cookie: string, from: string) {
  return app.request('/api/objects/upload', { method: 'POST', cookie, headers: { 'x-forwarded-for': from } });
}

function aiChat(app: TestApp, cookie: string, from: string) {
  return app.request('/api/ai/chat', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ message: 'hello' }),
  });
}

/** A GraphQL AI mutation from an address: the assistant's message or analyzeFile. */
async function aiMutation(
  app: TestApp,
  cookie: string,
  from: string,
  mutation: 'sendAssistantMessage' | 'analyzeFile',
) {
  const field =
    mutation === 'sendAssistantMessage'
      ? 'sendAssistantMessage(message: "hello") { __typename ... on MutationSendAssistantMessageSuccess { data { message } } ...refusal }'
      : 'analyzeFile(fileId: "5d9f1c2e-0000-4000-8000-000000000000") { __typename ...refusal }';
  const response = await app.request('/graphql', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({
      query: `mutation { result: ${field} }
        fragment refusal on Error { message code ... on TooManyRequestsError { retryAfterSeconds } }`,
    }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    data?: { result: { __typename: string; message?: string; code?: string; retryAfterSeconds?: number } };
  };
  return body.data?.result;
}

function expectRefusedResult(result: Awaited<ReturnType<typeof aiMutation>>) {
  expect(result).toMatchObject({
    __typename: 'TooManyRequestsError',
    message: 'Too many requests. Please wait a moment and try again.',
    code: 'TOO_MANY_REQUESTS',
  });
  expect(result?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(result?.retryAfterSeconds).toBeLessThanOrEqual(60);
}

describe('in memory (one instance)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp({ TRUST_PROXY: '1', RATE_LIMITS: 'true' }, tight);
  });
  afterAll(() => app.close());

  it('limits sign-ups per address, and other addresses still sign up', async () => {
    const from = address();
    expect((await signUpFrom(app, from)).status).toBe(202);
    expect((await signUpFrom(app, from)).status).toBe(202);
    await expectRefused(await signUpFrom(app, from));
    expect((await signUpFrom(app, address())).status).toBe(202);
  });
  // Password sign-in has its own throttle that forgives: signin-throttle.test.ts.

  it('limits every public review path per address, made-up tokens included', async () => {
    const from = address();
    const review = (path: string, method = 'GET') =>
      app.request(path, {
        method,
        headers: { 'x-forwarded-for': from, 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
    const token = 'A'.repeat(32);
    expect((await review(`/api/review/${token}`)).status).toBe(404);
    expect((await review(`/api/review/${token}/photos/x`)).status).toBe(404);
    await expectRefused(await review(`/api/review/${token}`));
    // Writes have their own, smaller budget.
    expect((await review(`/api/review/${token}/comments`, 'POST')).status).toBe(404);
    expect((await review(`/api/review/${token}/picks/x`, 'PUT')).status).toBe(404);
    expect((await review(`/api/review/${token}/unlock`, 'POST')).status).toBe(404);
    await expectRefused(await review(`/api/review/${token}/comments`, 'POST'));
  });
});

describe('in memory, for signed-in users', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp({ TRUST_PROXY: '1', RATE_LIMITS: 'true' }, (config) => {
      const c = tight(config);
      // The people these tests need sign up from the harness's one address.
      if (c.rateLimits) c.rateLimits.signUp.perAddress.limit = 1000;
      return c;
    });
  });
  afterAll(() => app.close());

  it('limits upload URLs per user and per address', async () => {
    const ana = await signedInUser(app);
    const ben = await signedInUser(app);
    const from = address();
    for (let i = 0; i < 3; i++) expect((await uploadUrl(app, ana.cookie, from)).status).toBe(200);
    // Ana's own budget is spent wherever she asks from…
    await expectRefused(await uploadUrl(app, ana.cookie, address()));
    // …Ben on the same address still has his, until the address's budget (5) runs out.
    expect((await uploadUrl(app, ben.cookie, from)).status).toBe(200);
    expect((await uploadUrl(app, ben.cookie, from)).status).toBe(200);
    await expectRefused(await uploadUrl(app, ben.cookie, from));
    expect((await uploadUrl(app, ben.cookie, address())).status).toBe(200);
  });

  it('counts a batch of upload URLs as that many URLs', async () => {
    const cara = await signedInUser(app);
    const batch = (count: number) =>
      app.request(`/api/objects/uploads?count=${count}`, {
        method: 'POST',
        cookie: cara.cookie,
        headers: { 'x-forwarded-for': address() },
      });
    // Her budget is three URLs: one batch of three spends it all.
    expect((await batch(3)).status).toBe(200);
    await expectRefused(await uploadUrl(app, cara.cookie, address()));
    const dan = await signedInUser(app);
    const tooMany = await app.request('/api/objects/uploads?count=4', {
      method: 'POST',
      cookie: dan.cookie,
      headers: { 'x-forwarded-for': address() },
    });
    await expectRefused(tooMany);
  });

  it('limits the AI endpoints per user', async () => {
    const ana = await signedInUser(app);
    for (let i = 0; i < 2; i++) expect((await aiChat(app, ana.cookie, address())).status).not.toBe(429);
    await expectRefused(await aiChat(app, ana.cookie, address()));
    const analyze = await app.request('/api/ai/analyze-file', {
      method: 'POST',
      cookie: ana.cookie,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
      body: JSON.stringify({ fileId: 'nope' }),
    });
    await expectRefused(analyze);
    // Reading the conversations is not limited.
    expect((await app.request('/api/ai/conversations', { cookie: ana.cookie })).status).toBe(200);
  });

  it('spends the same AI budget over GraphQL as over REST, per user and per address', async () => {
    const ana = await signedInUser(app);
    // Ana: one message over REST, one over GraphQL; her budget (2) is then spent on both sides.
    expect((await aiChat(app, ana.cookie, address())).status).toBe(200);
    expect((await aiMutation(app, ana.cookie, address(), 'sendAssistantMessage'))?.__typename).toBe(
      'MutationSendAssistantMessageSuccess',
    );
    expectRefusedResult(await aiMutation(app, ana.cookie, address(), 'sendAssistantMessage'));
    expectRefusedResult(await aiMutation(app, ana.cookie, address(), 'analyzeFile'));
    await expectRefused(await aiChat(app, ana.cookie, address()));
    // A refused message saved nothing: the two that went through are all there is.
    expect(await app.database.prisma.aiConversation.count({ where: { userId: ana.id } })).toBe(2);

    // One address (budget 3) shared by several people, REST and GraphQL alike.
    const from = address();
    const [ben, cai, dee] = [await signedInUser(app), await signedInUser(app), await signedInUser(app)];
    expect((await aiMutation(app, ben.cookie, from, 'sendAssistantMessage'))?.__typename).toBe(
      'MutationSendAssistantMessageSuccess',
    );
    expect((await aiMutation(app, cai.cookie, from, 'analyzeFile'))?.__typename).toBe('BaseError');
    expect((await aiChat(app, dee.cookie, from)).status).toBe(200);
    expectRefusedResult(await aiMutation(app, dee.cookie, from, 'sendAssistantMessage'));
    expectRefusedResult(await aiMutation(app, ben.cookie, from, 'analyzeFile'));
    // Elsewhere Dee still has budget of her own.
    expect((await aiMutation(app, dee.cookie, address(), 'sendAssistantMessage'))?.__typename).toBe(
      'MutationSendAssistantMessageSuccess',
    );
  });
});

describe('in Redis (shared by instances)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { TRUST_PROXY: '1', RATE_LIMITS: 'true', REDIS_URL: 'redis://127.0.0.1:6379' };
    a = await testApp(env, tight);
    b = await testApp(env, tight);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts one budget across two instances', async () => {
    const from = address();
    expect((await signUpFrom(a, from)).status).toBe(202);
    expect((await signUpFrom(b, from)).status).toBe(202);
    await expectRefused(await signUpFrom(a, from));
    await expectRefused(await signUpFrom(b, from));
  });

  it('counts a batch of upload URLs as that many URLs in Redis', async () => {
    // Signed up from an address of its own: the harness's one address has spent its sign-ups here.
    const who = person();
    expect((await signUpFrom(a, address(), who)).status).toBe(202);
    const { jar } = await signIn(a, who);
    const batch = await a.request('/api/objects/uploads?count=3', {
      method: 'POST',
      cookie: jar.header,
      headers: { 'x-forwarded-for': address() },
    });
    expect(batch.status).toBe(200);
    // Three URLs spent the person's budget of three (the count kept in Redis).
    await expectRefused(await uploadUrl(a, jar.header, address()));
  });
});
