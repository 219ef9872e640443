import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BASE,
  CookieJar,
  csrfToken,
  graphql,
  type Person,
  send,
  sendBody,
  signedInUser,
  signIn,
  testApp,
  type TestApp,
} from '../../test/harness.ts';
import { collect, type Listening, listen, secondInstance, wsClient } from '../../test/live.ts';
import {
  googleClient,
  googleSettings,
  identity,
  signInThroughIssuer,
  startOidcIssuer,
} from '../../test/fakes/oidc-issuer.ts';
import { sseResults } from '../../test/sse.ts';
import { disableUser, endSessions } from './session-control.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const UNREAD = 'subscription { unreadNotificationCount }';

let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let app: TestApp;
let server: Listening;

beforeAll(async () => {
  issuer = await startOidcIssuer(googleClient);
  // One proxy in front (TRUST_PROXY=1), so a test can say which address a request comes from.
  // The periodic session check of live sockets is far away: a socket must close on the event.
  app = await testApp({
    TRUST_PROXY: '1',
    LIVE_SESSION_CHECK_SECONDS: '3600',
    ...googleSettings(issuer),
  });
  server = await listen(app, { sessionCheckMs: 3_600_000 });
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  await issuer?.close();
});

/** Signs in with a password from a browser (`userAgent`) at an address (`ip`). */
async function signInFrom(who: Pick<Person, 'email' | 'password'>, userAgent: string, ip: string) {
  const { jar, response } = await signIn(app, who, new CookieJar(), { 'user-agent': userAgent, 'x-forwarded-for': ip });
  const location = new URL(response.headers.get('location') ?? '', BASE);
  return { cookie: jar.header, error: location.searchParams.get('error'), code: location.searchParams.get('code') };
}

async function sessionsOf(cookie: string) {
  return send<{ id: string; current: boolean; userAgent: string | null; ip: string | null }[]>(
    app,
    cookie,
    'GET',
    '/api/auth/sessions',
  );
}

async function auditOf(action: string, where: { subjectId?: string | null } = {}) {
  return app.database.prisma.auditEvent.findMany({ where: { action, ...where }, orderBy: { createdAt: 'asc' } });
}

/** A live subscription of this cookie, once its first result arrived. */
async function liveSocket(cookie: string) {
  const client = wsClient(server.ws, { cookie });
  const sub = collect<{ unreadNotificationCount: number }>(client, UNREAD);
  await sub.next(1);
  return { client, sub };
}

describe('sessions and devices', () => {
  it('lists the live sessions with browser, address and which one is this one, current first', async () => {
    const who = await signedInUser(app);
    const laptop = await signInFrom(who, FIREFOX, '203.0.113.7');
    const phone = await signInFrom(who, IPHONE, '198.51.100.20');
    // An expired session is not a signed-in device.
    await app.database.prisma.session.create({
      data: { userId: who.id, expiresAt: new Date(Date.now() - 1000), userAgent: FIREFOX },
    });

    const { status, body } = await sessionsOf(phone.cookie);
    expect(status).toBe(200);
    expect(body).toHaveLength(3);
    expect(body[0]).toMatchObject({ current: true, userAgent: IPHONE, ip: '198.51.100.20' });
    expect(body.filter((s) => s.current)).toHaveLength(1);
    expect(body).toContainEqual(expect.objectContaining({ current: false, userAgent: FIREFOX, ip: '203.0.113.7' }));
    for (const session of body) {
      expect(Object.keys(session).sort()).toEqual(['createdAt', 'current', 'id', 'ip', 'lastSeenAt', 'userAgent']);
    }
    expect((await sessionsOf(laptop.cookie)).body[0]).toMatchObject({ current: true, userAgent: FIREFOX });
  });

  it('records every sign-in with its address and browser, and failed ones', async () => {
    const who = await signedInUser(app);
    await signInFrom(who, FIREFOX, '203.0.113.8');
    const signIns = await auditOf('sign_in', { subjectId: who.id });
    expect(signIns).toHaveLength(2);
    expect(signIns[1]).toMatchObject({
      actorId: who.id,
      actorEmail: who.email,
      ipAddress: '203.0.113.8',
      userAgent: FIREFOX,
      metadata: { provider: 'credentials' },
    });

    const wrong = await signInFrom({ email: who.email, password: 'not the password' }, FIREFOX, '203.0.113.9');
    expect(wrong.error).toBe('CredentialsSignin');
    expect(await auditOf('sign_in_failed', { subjectId: who.id })).toEqual([
      expect.objectContaining({ subjectEmail: who.email, ipAddress: '203.0.113.9', userAgent: FIREFOX }),
    ]);

    const nobody = `nobody-${who.id}@example.com`;
    await signInFrom({ email: nobody, password: 'whatever it is' }, FIREFOX, '203.0.113.9');
    const unknown = (await auditOf('sign_in_failed', { subjectId: null })).filter(
      (e) => (e.metadata as { email?: string }).email === nobody,
    );
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ actorId: null, subjectEmail: null, ipAddress: '203.0.113.9' });
  });

  it('signs out one of my own devices; its cookie is refused at once', async () => {
    const who = await signedInUser(app);
    const other = await signInFrom(who, FIREFOX, '203.0.113.7');
    const otherId = (await sessionsOf(other.cookie)).body[0]?.id as string;

    const ended = await sendBody(app, who.cookie, 'DELETE', `/api/auth/sessions/${otherId}`);
    expect(ended.status).toBe(204);
    expect((await app.request('/api/auth/user', { cookie: other.cookie })).status).toBe(401);
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(200);
    expect((await sessionsOf(who.cookie)).body.map((s) => s.id)).not.toContain(otherId);
    expect(await auditOf('session_ended', { subjectId: who.id })).toEqual([
      expect.objectContaining({ actorId: who.id, metadata: { sessionId: otherId, current: false } }),
    ]);
  });

  it("answers 404 for another person's session, an unknown one and a malformed id, and ends nothing", async () => {
    const owner = await signedInUser(app);
    const stranger = await signedInUser(app);
    const ownerSession = (await sessionsOf(owner.cookie)).body[0]?.id as string;
    for (const id of [ownerSession, '00000000-0000-4000-8000-000000000000', 'not-a-session']) {
      const response = await send(app, stranger.cookie, 'DELETE', `/api/auth/sessions/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toHaveProperty('message');
    }
    expect((await app.request('/api/auth/user', { cookie: owner.cookie })).status).toBe(200);
  });

  it('signs out every other device and keeps this one', async () => {
    const who = await signedInUser(app);
    const laptop = await signInFrom(who, FIREFOX, '203.0.113.7');
    const phone = await signInFrom(who, IPHONE, '198.51.100.20');
    const bystander = await signedInUser(app);

    const response = await send(app, laptop.cookie, 'DELETE', '/api/auth/sessions');
    expect(response).toEqual({ status: 200, body: { ended: 2 } });
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(401);
    expect((await app.request('/api/auth/user', { cookie: phone.cookie })).status).toBe(401);
    expect((await sessionsOf(laptop.cookie)).body).toEqual([expect.objectContaining({ current: true })]);
    expect((await app.request('/api/auth/user', { cookie: bystander.cookie })).status).toBe(200);
    expect(await auditOf('sessions_ended', { subjectId: who.id })).toEqual([
      expect.objectContaining({ actorId: who.id, metadata: expect.objectContaining({ count: 2 }) }),
    ]);
  });

  it('lists them in GraphQL too (the Security screen reads them there)', async () => {
    const who = await signedInUser(app);
    const phone = await signInFrom(who, IPHONE, '198.51.100.20');
    const { data } = await graphql<{ viewer: { sessions: { current: boolean; userAgent: string; ip: string }[] } }>(
      app,
      phone.cookie,
      '{ viewer { sessions { id current userAgent ip createdAt lastSeenAt } } }',
    );
    expect(data?.viewer.sessions).toHaveLength(2);
    expect(data?.viewer.sessions[0]).toMatchObject({ current: true, userAgent: IPHONE, ip: '198.51.100.20' });
  });

  it('refuses the session routes without a session', async () => {
    expect((await app.request('/api/auth/sessions')).status).toBe(401);
    expect((await sendBody(app, undefined, 'DELETE', '/api/auth/sessions')).status).toBe(401);
    expect(
      (await sendBody(app, undefined, 'DELETE', '/api/auth/sessions/00000000-0000-4000-8000-000000000000')).status,
    ).toBe(401);
  });
});

describe('live sockets of an ended session', () => {
  it('closes the socket of a session signed out elsewhere within a second; the others stay open', async () => {
    const who = await signedInUser(app);
    const laptop = await signInFrom(who, FIREFOX, '203.0.113.7');
    const ended = await liveSocket(who.cookie);
    const kept = await liveSocket(laptop.cookie);
    const endedId = (await sessionsOf(who.cookie)).body[0]?.id as string;

    const started = Date.now();
    expect((await sendBody(app, laptop.cookie, 'DELETE', `/api/auth/sessions/${endedId}`)).status).toBe(204);
    const { failure } = await ended.sub.ended(1000);
    expect(failure).toBeDefined();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(ended.client.closes).toContain(4403);
    expect(kept.sub.failure).toBeUndefined();
    expect(kept.client.closes).toEqual([]);
    await ended.client.dispose();
    await kept.client.dispose();
  });

  it('closes the sockets of every other device, and those of an access token, through endSessions', async () => {
    const who = await signedInUser(app);
    const laptop = await signInFrom(who, FIREFOX, '203.0.113.7');
    const { token } = (await send<{ token: string }>(app, who.cookie, 'GET', '/api/auth/firebase-token')).body;
    const byToken = wsClient(server.ws, { token });
    const tokenSub = collect(byToken, UNREAD);
    await tokenSub.next(1);
    const kept = await liveSocket(laptop.cookie);

    const laptopId = (await sessionsOf(laptop.cookie)).body[0]?.id as string;
    await endSessions(app.services, { userId: who.id, exceptSessionId: laptopId });
    await tokenSub.ended(1000);
    expect(byToken.closes).toContain(4403);
    expect(kept.client.closes).toEqual([]);
    await byToken.dispose();
    await kept.client.dispose();
  });
});

describe('signing out', () => {
  it("closes the live sockets of the session's other tabs at once", async () => {
    const who = await signedInUser(app);
    const otherTab = await liveSocket(who.cookie);
    const csrf = await csrfToken(app, who.jar);
    const signOut = await app.request('/api/auth/signout', {
      method: 'POST',
      cookie: who.jar.header,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: csrf }),
    });
    expect(signOut.status).toBe(302);
    await otherTab.sub.ended(1000);
    expect(otherTab.client.closes).toContain(4403);
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(401);
    await otherTab.client.dispose();
  });
});

describe('two instances on one Redis', () => {
  it('closes a socket on instance B when the session ends through instance A', async () => {
    const a = await testApp({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
    const b = await secondInstance(a);
    await Promise.all([a.services.events.ready(), b.services.events.ready()]);
    const serverB = await listen(b, { sessionCheckMs: 3_600_000 });
    try {
      const who = await signedInUser(a);
      const client = wsClient(serverB.ws, { cookie: who.cookie });
      const sub = collect(client, UNREAD);
      await sub.next(1);
      await b.services.events.subscribed('sessions:ended:instance');
      await endSessions(a.services, { userId: who.id });
      await sub.ended(1000);
      expect(client.closes).toContain(4403);
      await client.dispose();
    } finally {
      await serverB.close();
      await b.close();
      await a.close();
    }
  }, 120_000);
});

describe('live streams (SSE) of an ended session', () => {
  it('ends the stream at once', async () => {
    const who = await signedInUser(app);
    const response = await fetch(`${server.http}/graphql`, {
      method: 'POST',
      headers: { cookie: who.cookie, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: UNREAD }),
    });
    expect(response.status).toBe(200);
    const stream = sseResults<{ data: unknown }>(response);
    await stream.until((results) => results.length > 0);

    const started = Date.now();
    await endSessions(app.services, { userId: who.id });
    // Reads until the server ends the stream.
    await stream.until(() => false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('a disabled account', () => {
  it('is refused everywhere at once: cookie, access token, live socket, and sign-in says why', async () => {
    const who = await signedInUser(app);
    const { token } = (await send<{ token: string }>(app, who.cookie, 'GET', '/api/auth/firebase-token')).body;
    const live = await liveSocket(who.cookie);

    await disableUser(app.services, who.id, true);
    await live.sub.ended(1000);
    expect(live.client.closes).toContain(4403);
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(401);
    expect((await app.request('/api/auth/user', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);

    // A wrong password says only that; the right one says the account is disabled.
    const guess = await signInFrom({ email: who.email, password: 'a wrong guess' }, FIREFOX, '203.0.113.7');
    expect(guess).toMatchObject({ error: 'CredentialsSignin', code: 'credentials' });
    const refused = await signInFrom(who, FIREFOX, '203.0.113.7');
    expect(refused).toMatchObject({ error: 'CredentialsSignin', code: 'account_disabled' });
    expect((await app.request('/api/auth/user', { cookie: refused.cookie })).status).toBe(401);
    expect(await app.database.prisma.session.count({ where: { userId: who.id } })).toBe(0);
    expect((await auditOf('sign_in_failed', { subjectId: who.id })).map((e) => e.metadata)).toEqual([
      {},
      { reason: 'account_disabled' },
    ]);

    await live.client.dispose();
  });

  it('refuses a session that was started before the account was disabled, even if its row is left', async () => {
    const who = await signedInUser(app);
    await app.database.prisma.user.update({ where: { id: who.id }, data: { disabledAt: new Date() } });
    expect((await app.request('/api/auth/user', { cookie: who.cookie })).status).toBe(401);
  });

  it('signs in again once enabled', async () => {
    const who = await signedInUser(app);
    await disableUser(app.services, who.id, true);
    await disableUser(app.services, who.id, false);
    const again = await signInFrom(who, FIREFOX, '203.0.113.7');
    expect(again.error).toBeNull();
    expect((await app.request('/api/auth/user', { cookie: again.cookie })).status).toBe(200);
  });

  it('is refused through Google too, and no session starts', async () => {
    issuer.addAccount(identity('google-disabled-1', 'leaver@example.com', 'Lee Ver'));
    const first = await signInThroughIssuer(app, issuer, 'google', 'google-disabled-1');
    expect((await app.request('/api/auth/user', { cookie: first.jar.header })).status).toBe(200);
    const user = await app.database.prisma.user.findUniqueOrThrow({ where: { email: 'leaver@example.com' } });
    expect(await auditOf('sign_in', { subjectId: user.id })).toEqual([
      expect.objectContaining({ metadata: expect.objectContaining({ provider: 'google' }) }),
    ]);

    await disableUser(app.services, user.id, true);
    const second = await signInThroughIssuer(app, issuer, 'google', 'google-disabled-1');
    const location = new URL(second.callback.headers.get('location') ?? '', BASE);
    expect(location.pathname).toBe('/signin');
    expect(location.searchParams.get('code')).toBe('account_disabled');
    expect((await app.request('/api/auth/user', { cookie: second.jar.header })).status).toBe(401);
    expect(await app.database.prisma.session.count({ where: { userId: user.id } })).toBe(0);
  });
});
