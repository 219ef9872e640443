import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, graphql, person, signedInUser, signIn, testApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

describe('local accounts', () => {
  it('signs up, signs in and answers /api/auth/user with the profile', async () => {
    const who = await signedInUser(app, { name: 'Ana María Lopez' });
    const response = await app.request('/api/auth/user', { cookie: who.cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: who.id,
      email: who.email,
      firstName: 'Ana',
      lastName: 'María Lopez',
      displayName: 'Ana María Lopez',
      profileImageUrl: null,
    });
  });

  it('keeps the session cookie httpOnly and SameSite', async () => {
    const who = person();
    await app.request('/api/auth/signup', {
      method: 'POST',
      body: JSON.stringify(who),
      headers: { 'content-type': 'application/json' },
    });
    const { response } = await signIn(app, who);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('refuses bad sign-up input with a clear message', async () => {
    const post = (body: unknown) =>
      app.request('/api/auth/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const cases: [unknown, number, string][] = [
      [{ name: 'A', email: 'not-an-email', password: 'long enough' }, 400, 'Enter a valid email address.'],
      [{ name: 'A', email: 'a@example.com', password: 'short' }, 400, 'Password must be at least 8 characters.'],
      [{ name: '   ', email: 'a@example.com', password: 'long enough' }, 400, 'Name is required.'],
      [{ email: 'a@example.com', password: 'long enough' }, 400, 'name'],
    ];
    for (const [body, status, message] of cases) {
      const response = await post(body);
      expect(response.status).toBe(status);
      expect(((await response.json()) as { message: string }).message).toContain(message);
    }
    const broken = await app.request('/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ message: 'The request body is not valid JSON.' });
  });

  it('makes no second account for the same address, whatever its case, and says nothing of it', async () => {
    const who = await signedInUser(app);
    const response = await app.request('/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...person(), email: who.email.toUpperCase() }),
    });
    // The answer of any sign-up (recovery.test.ts compares both): the address's holder is e-mailed instead.
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ message: 'Check your e-mail to verify your address.', email: who.email });
    expect(await app.database.prisma.user.count({ where: { email: who.email } })).toBe(1);
  });

  it('gives no session for a wrong password or an unknown address', async () => {
    const who = await signedInUser(app);
    for (const attempt of [
      { ...who, password: 'wrong password!' },
      { email: 'nobody@example.com', password: who.password },
    ]) {
      const { jar, response } = await signIn(app, attempt);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toContain('error=CredentialsSignin');
      expect(jar.has('authjs.session-token')).toBe(false);
    }
  });

  it('slows down repeated failures: after five, even the right password waits', async () => {
    const who = await signedInUser(app);
    for (let i = 0; i < 5; i++) await signIn(app, { ...who, password: `wrong-${i}-password` });
    const { jar, response } = await signIn(app, who);
    expect(response.headers.get('location')).toContain('code=too_many_attempts');
    expect(jar.has('authjs.session-token')).toBe(false);
    // The failures drain with time, and others behind the same address are not locked:
    // test/hardening/signin-throttle.test.ts.
    const colleague = await signedInUser(app);
    expect((await signIn(app, colleague)).jar.has('authjs.session-token')).toBe(true);
  });

  it('sends sign-in to the app’s own page, keeping only a same-site way back', async () => {
    const location = async (path: string) => (await app.request(path)).headers.get('location');
    expect(await location('/api/login?callbackUrl=%2Fgalleries%2F7%3Ftab%3Dmap')).toBe(
      '/signin?callbackUrl=%2Fgalleries%2F7%3Ftab%3Dmap',
    );
    for (const elsewhere of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example/x',
      'javascript:alert(1)',
    ]) {
      expect(await location(`/api/login?callbackUrl=${encodeURIComponent(elsewhere)}`)).toBe('/signin?callbackUrl=%2F');
    }
    // Auth.js's own sign-in and error pages hand over to it as well: nobody sees its unbranded page.
    const authjs = new URL((await location('/api/auth/signin?callbackUrl=%2Ftasks')) ?? '', 'http://x');
    expect(authjs.pathname).toBe('/signin');
    expect(authjs.searchParams.get('callbackUrl')).toContain('/tasks');
    expect(new URL((await location('/api/auth/error?error=Configuration')) ?? '', 'http://x').pathname).toBe('/signin');
  });

  it('says why a sign-in failed on the sign-in page: wrong password, or locked for how long', async () => {
    const who = await signedInUser(app);
    const wrong = await signIn(app, { ...who, password: 'wrong password!' });
    const failed = new URL(wrong.response.headers.get('location') ?? '', 'http://x');
    expect(failed.pathname).toBe('/signin');
    expect(failed.searchParams.get('error')).toBe('CredentialsSignin');
    expect(failed.searchParams.get('code')).toBe('credentials');
    for (let i = 0; i < 4; i++) await signIn(app, { ...who, password: `wrong-${i}-password` });
    const locked = new URL((await signIn(app, who)).response.headers.get('location') ?? '', 'http://x');
    expect(locked.pathname).toBe('/signin');
    // The page needs the lock's length to say it: one failure drains every 30 s.
    expect(Number(/^too_many_attempts:(\d+)$/.exec(locked.searchParams.get('code') ?? '')?.[1])).toBeGreaterThan(20);
  });

  it('lets an administrator turn open sign-up off', async () => {
    const closed = await testApp({ ALLOW_SIGNUP: 'false' });
    try {
      const response = await closed.request('/api/auth/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(person()),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        message: 'Sign-up is turned off. Ask an administrator for an account.',
      });
    } finally {
      await closed.close();
    }
  });
});

describe('sessions', () => {
  it('answers 401 Unauthorized on data paths when signed out', async () => {
    const user = await app.request('/api/auth/user');
    expect(user.status).toBe(401);
    expect(await user.text()).toBe('Unauthorized');
    const token = await app.request('/api/auth/firebase-token');
    expect(token.status).toBe(401);
    const gql = await graphql(app, undefined, '{ viewer { id email } }');
    expect(gql.status).toBe(401);
    expect(gql.data).toBeUndefined();
    const forged = await app.request('/api/auth/user', { cookie: 'authjs.session-token=forged.value.here' });
    expect(forged.status).toBe(401);
  });

  it('ends the session on sign-out, so the old cookie no longer works', async () => {
    const who = await signedInUser(app);
    const stolen = who.jar.header;
    const csrf = await app.request('/api/auth/csrf', { cookie: who.jar.header });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const out = await app.request('/api/auth/signout', {
      method: 'POST',
      cookie: who.jar.header,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken }),
    });
    expect(out.status).toBe(302);
    expect((await app.request('/api/auth/user', { cookie: stolen })).status).toBe(401);
    expect(await app.database.prisma.session.count({ where: { userId: who.id } })).toBe(0);
  });

  it('expires sessions', async () => {
    const who = await signedInUser(app);
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(200);
    await app.database.prisma.session.updateMany({
      where: { userId: who.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(401);
  });

  it('issues a short-lived token that stands for the session', async () => {
    const who = await signedInUser(app);
    const response = await app.request('/api/auth/firebase-token', { cookie: who.cookie });
    const { token, expiresIn } = (await response.json()) as { token: string; expiresIn: number };
    expect(expiresIn).toBe(300);
    const bearer = (t: string) => app.request('/api/auth/user', { headers: { authorization: `Bearer ${t}` } });
    expect(await (await bearer(token)).json()).toMatchObject({ id: who.id });
    expect((await bearer(`${token.slice(0, -2)}xx`)).status).toBe(401);
    // The token dies with its session.
    await app.database.prisma.session.deleteMany({ where: { userId: who.id } });
    expect((await bearer(token)).status).toBe(401);
  });

  it('serves the viewer over GraphQL with the session cookie', async () => {
    const who = await signedInUser(app, { name: 'Sam Ortiz' });
    const result = await graphql<{ viewer: { email: string; displayName: string; id: string } }>(
      app,
      who.cookie,
      '{ viewer { id email displayName } }',
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.viewer).toMatchObject({ email: who.email, displayName: 'Sam Ortiz' });
    // Relay global ids resolve back through node().
    const node = await graphql<{ node: { email: string } | null }>(
      app,
      who.cookie,
      'query($id: ID!) { node(id: $id) { ... on User { email } } }',
      { id: result.data?.viewer.id },
    );
    expect(node.data?.node?.email).toBe(who.email);
  });

  it('never resolves another user through node() for a stranger', async () => {
    const a = await signedInUser(app);
    const b = await signedInUser(app);
    const aId = (await graphql<{ viewer: { id: string } }>(app, a.cookie, '{ viewer { id } }')).data?.viewer.id;
    const seen = await graphql<{ node: unknown }>(app, b.cookie, 'query($id: ID!) { node(id: $id) { id } }', {
      id: aId,
    });
    expect(seen.data?.node).toBeNull();
  });

  it('returns validation failures as typed GraphQL errors', async () => {
    const who = await signedInUser(app);
    const mutation = `mutation($first: String) {
      updateProfile(firstName: $first) {
        __typename
        ... on MutationUpdateProfileSuccess { data { firstName } }
        ... on ValidationError { message field }
      }
    }`;
    const ok = await graphql<{ updateProfile: { data: { firstName: string } } }>(app, who.cookie, mutation, {
      first: 'Renée',
    });
    expect(ok.data?.updateProfile.data.firstName).toBe('Renée');
    const bad = await graphql<{ updateProfile: { __typename: string; message: string; field: string } }>(
      app,
      who.cookie,
      mutation,
      { first: 'x'.repeat(101) },
    );
    expect(bad.data?.updateProfile).toEqual({
      __typename: 'ValidationError',
      message: 'First name is too long.',
      field: 'firstName',
    });
  });
});

describe('new cookie jar', () => {
  it('starts empty', () => {
    expect(new CookieJar().header).toBe('');
  });
});
