import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config, SignInThrottle } from '../../src/config.ts';
import { CookieJar, person, type Person, randomAddress, signUpFrom, testApp, type TestApp } from '../harness.ts';

// Password sign-in throttling that forgives (issue 17, item 4): failures count against the
// account tried and the address they come from, and drain away with time. One person's typos
// never lock out everyone behind the same address (an office's NAT), a successful sign-in takes
// that person's failures back, and the counts hold across instances through Redis.

const address = randomAddress;

type Outcome = 'signed-in' | 'wrong' | `locked:${number}`;

async function attempt(app: TestApp, from: string, who: Pick<Person, 'email' | 'password'>): Promise<Outcome> {
  const jar = new CookieJar();
  const csrf = await app.request('/api/auth/csrf', { headers: { 'x-forwarded-for': from } });
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await app.request('/api/auth/callback/credentials', {
    method: 'POST',
    cookie: jar.header,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
    body: new URLSearchParams({ email: who.email, password: who.password, csrfToken }),
  });
  jar.store(response);
  if (jar.has('authjs.session-token')) return 'signed-in';
  const code = new URL(response.headers.get('location') ?? '', 'http://x').searchParams.get('code') ?? '';
  const locked = /^too_many_attempts:(\d+)$/.exec(code);
  if (locked) return `locked:${Number(locked[1])}`;
  expect(code).toBe('credentials');
  return 'wrong';
}

const wrong = (who: Person, i = 0) => ({ email: who.email, password: `not it ${i}` });

async function account(app: TestApp): Promise<Person> {
  const who = person();
  expect((await signUpFrom(app, address(), who)).status).toBe(202);
  return who;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The numbers under test, small enough to exhaust and to drain within a test. */
function throttle(overrides: Partial<SignInThrottle> = {}) {
  return (config: Config): Config => {
    config.auth.signInThrottle = {
      perAccount: [{ burst: 5, refillSeconds: 30 }],
      perAddress: [{ burst: 8, refillSeconds: 30 }],
      ...overrides,
    };
    return config;
  };
}

describe.each([
  ['in memory', {}],
  ['in Redis', { REDIS_URL: 'redis://127.0.0.1:6379' }],
])('%s', (_name, env: Record<string, string>) => {
  const apps: TestApp[] = [];
  const start = async (adjust: (config: Config) => Config) => {
    const app = await testApp({ TRUST_PROXY: '1', ...env }, adjust);
    apps.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  let app: TestApp;
  beforeAll(async () => {
    app = await start(throttle());
  });

  it('locks one account after its failures, even for the right password, and no one else behind its address', async () => {
    const office = address();
    const [ana, ben, cai] = [await account(app), await account(app), await account(app)];
    for (let i = 0; i < 5; i++) expect(await attempt(app, office, wrong(ana, i))).toBe('wrong');
    const locked = await attempt(app, office, ana);
    expect(locked).toMatch(/^locked:\d+$/);
    expect(Number(locked.split(':')[1])).toBeGreaterThanOrEqual(1);
    expect(Number(locked.split(':')[1])).toBeLessThanOrEqual(30);
    // Ana's colleagues, each with a typo of their own, sign in from the same address.
    expect(await attempt(app, office, wrong(ben))).toBe('wrong');
    expect(await attempt(app, office, ben)).toBe('signed-in');
    expect(await attempt(app, office, wrong(cai))).toBe('wrong');
    expect(await attempt(app, office, cai)).toBe('signed-in');
    // Ana is locked wherever she tries from.
    expect(await attempt(app, address(), ana)).toMatch(/^locked:/);
  });

  it('takes a person’s failures back when they sign in, so a busy office is never locked out', async () => {
    // Twenty people behind one address (budget: 8 failures) each get their password wrong three
    // times before getting it right: 60 failures in all, and everyone gets in.
    const office = address();
    for (let p = 0; p < 20; p++) {
      const who = await account(app);
      for (let i = 0; i < 3; i++) expect(await attempt(app, office, wrong(who, i))).toBe('wrong');
      expect(await attempt(app, office, who)).toBe('signed-in');
    }
  });

  it('stops one address guessing across many accounts; its own account’s success does not reset that', async () => {
    const from = address();
    const mine = await account(app);
    const victims = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9].map(() => account(app)));
    for (const victim of victims.slice(0, 6)) expect(await attempt(app, from, wrong(victim))).toBe('wrong');
    // Signing in to an account of one's own gives back only that account's failures: none.
    expect(await attempt(app, from, mine)).toBe('signed-in');
    expect(await attempt(app, from, wrong(victims[6] as Person))).toBe('wrong');
    expect(await attempt(app, from, wrong(victims[7] as Person))).toBe('wrong');
    expect(await attempt(app, from, wrong(victims[8] as Person))).toMatch(/^locked:/);
    // The right password is refused too while the address is locked, and others elsewhere are not.
    expect(await attempt(app, from, victims[8] as Person)).toMatch(/^locked:/);
    expect(await attempt(app, address(), victims[8] as Person)).toBe('signed-in');
  });

  it('counts an account’s failures across addresses', async () => {
    const ana = await account(app);
    for (let i = 0; i < 5; i++) expect(await attempt(app, address(), wrong(ana, i))).toBe('wrong');
    expect(await attempt(app, address(), ana)).toMatch(/^locked:/);
  });

  it('counts attempts that arrive at the same moment: no more than the budget reach the password check', async () => {
    const ana = await account(app);
    const outcomes = await Promise.all(Array.from({ length: 15 }, (_, i) => attempt(app, address(), wrong(ana, i))));
    expect(outcomes.filter((o) => o === 'wrong').length).toBeLessThanOrEqual(5);
    expect(outcomes.filter((o) => o.startsWith('locked:')).length).toBeGreaterThanOrEqual(10);
  });

  it('forgives with time: failures drain away, one by one', async () => {
    const quick = await start(
      throttle({ perAccount: [{ burst: 3, refillSeconds: 1 }], perAddress: [{ burst: 4, refillSeconds: 1 }] }),
    );
    const ana = await account(quick);
    const from = address();
    for (let i = 0; i < 3; i++) expect(await attempt(quick, from, wrong(ana, i))).toBe('wrong');
    expect(await attempt(quick, from, ana)).toBe('locked:1');
    await sleep(1100);
    // One failure has drained: one more try, then locked again.
    expect(await attempt(quick, from, wrong(ana, 9))).toBe('wrong');
    expect(await attempt(quick, from, ana)).toMatch(/^locked:/);
    await sleep(1100);
    expect(await attempt(quick, from, ana)).toBe('signed-in');

    // An address that sprayed failures over many accounts is let in again once they drain.
    const sprayer = address();
    const [ben, ...others] = await Promise.all([0, 1, 2, 3, 4].map(() => account(quick)));
    for (const other of others) expect(await attempt(quick, sprayer, wrong(other))).toBe('wrong');
    expect(await attempt(quick, sprayer, ben as Person)).toMatch(/^locked:/);
    await sleep(1100);
    expect(await attempt(quick, sprayer, ben as Person)).toBe('signed-in');
  });

  if (env.REDIS_URL) {
    it('holds the lock across instances', async () => {
      const other = await start(throttle());
      const ana = await account(app);
      for (let i = 0; i < 5; i++) {
        expect(await attempt(i % 2 ? app : other, address(), wrong(ana, i))).toBe('wrong');
      }
      expect(await attempt(other, address(), ana)).toMatch(/^locked:/);
      expect(await attempt(app, address(), ana)).toMatch(/^locked:/);
    });
  }
});
