import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { person, signedInUser, testApp, type TestApp } from '../harness.ts';

// Small budgets so a test can exhaust them; addresses come from X-Forwarded-For (TRUST_PROXY).
function tight(config: Config): Config {
  const w = { windowSeconds: 60 };
  config.rateLimits = {
    signIn: { perAddress: { limit: 4, ...w }, perUser: { limit: 2, ...w } },
    signUp: { perAddress: { limit: 2, ...w } },
    uploadUrls: { perAddress: { limit: 5, ...w }, perUser: { limit: 3, ...w } },
    ai: { perAddress: { limit: 3, ...w }, perUser: { limit: 2, ...w } },
  };
  return config;
}

const address = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;

async function expectRefused(response: Response) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(await response.json()).toEqual({ message: 'Too many requests. Please wait a moment and try again.' });
}

function signUp(app: TestApp, from: string) {
  return app.request('/api/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(person()),
  });
}

async function signInAttempt(app: TestApp, from: string, email: string, password = 'wrong password here') {
  const csrf = await app.request('/api/auth/csrf', { headers: { 'x-forwarded-for': from } });
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return app.request('/api/auth/callback/credentials', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
    body: new URLSearchParams({ email, password, csrfToken }),
  });
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

describe('in memory (one instance)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp({ TRUST_PROXY: 'true', RATE_LIMITS: 'true' }, tight);
  });
  afterAll(() => app.close());

  it('limits sign-ups per address, and other addresses still sign up', async () => {
    const from = address();
    expect((await signUp(app, from)).status).toBe(201);
    expect((await signUp(app, from)).status).toBe(201);
    await expectRefused(await signUp(app, from));
    expect((await signUp(app, address())).status).toBe(201);
  });

  it('limits sign-in attempts per e-mail address across addresses, and per address across e-mails', async () => {
    const email = `${randomBytes(4).toString('hex')}@example.com`;
    expect((await signInAttempt(app, address(), email)).status).not.toBe(429);
    expect((await signInAttempt(app, address(), email)).status).not.toBe(429);
    await expectRefused(await signInAttempt(app, address(), email));

    const from = address();
    for (let i = 0; i < 4; i++) {
      expect((await signInAttempt(app, from, `${i}-${randomBytes(4).toString('hex')}@example.com`)).status).not.toBe(
        429,
      );
    }
    await expectRefused(await signInAttempt(app, from, `x-${randomBytes(4).toString('hex')}@example.com`));
  });
});

describe('in memory, for signed-in users', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp({ TRUST_PROXY: 'true', RATE_LIMITS: 'true' }, (config) => {
      const c = tight(config);
      // The people these tests need sign up from the harness's one address.
      if (c.rateLimits) c.rateLimits.signUp.perAddress.limit = c.rateLimits.signIn.perAddress.limit = 1000;
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
});

describe('in Redis (shared by instances)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { TRUST_PROXY: 'true', RATE_LIMITS: 'true', REDIS_URL: 'redis://127.0.0.1:6379' };
    a = await testApp(env, tight);
    b = await testApp(env, tight);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts one budget across two instances', async () => {
    const from = address();
    expect((await signUp(a, from)).status).toBe(201);
    expect((await signUp(b, from)).status).toBe(201);
    await expectRefused(await signUp(a, from));
    await expectRefused(await signUp(b, from));
  });
});
