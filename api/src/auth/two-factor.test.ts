import { TOTP, URI } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CookieJar,
  csrfToken,
  send,
  sendBody,
  signedInUser,
  testApp,
  type SignedInUser,
  type TestApp,
} from '../../test/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());
afterEach(() => vi.useRealTimers());

// TOTP codes belong to 30-second steps; the tests move the clock (Date only) step by step instead of
// waiting, starting in the middle of a step so that no code straddles two.
const STEP_MS = 30_000;
function clockAt(start: number, steps: number) {
  vi.setSystemTime(start + steps * STEP_MS);
}
function frozenClock() {
  vi.useFakeTimers({ toFake: ['Date'] });
  const now = Date.now();
  const start = now - (now % STEP_MS) + STEP_MS / 2;
  vi.setSystemTime(start);
  return start;
}

/** Signs in through the standard credentials flow, with the code form field when given. */
async function signInWith(who: { email: string; password: string }, code?: string) {
  const jar = new CookieJar();
  const csrf = await csrfToken(app, jar);
  const response = await app.request('/api/auth/callback/credentials', {
    method: 'POST',
    cookie: jar.header,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: who.email, password: who.password, csrfToken: csrf, ...(code && { code }) }),
  });
  jar.store(response);
  const location = new URL(response.headers.get('location') ?? '/', 'http://x');
  return {
    signedIn: jar.has('authjs.session-token'),
    error: location.searchParams.get('error'),
    code: location.searchParams.get('code'),
  };
}

/** Turns two-factor on for `who` the way the Security screen does; returns the app's TOTP and the recovery codes. */
async function turnOn(who: SignedInUser) {
  const setup = await send<{ otpauthUrl: string; qrCode: string; secret: string }>(
    app,
    who.cookie,
    'POST',
    '/api/auth/two-factor/setup',
  );
  expect(setup.status).toBe(200);
  const totp = URI.parse(setup.body.otpauthUrl) as TOTP;
  const enabled = await send<{ recoveryCodes: string[] }>(app, who.cookie, 'POST', '/api/auth/two-factor/enable', {
    code: totp.generate(),
  });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { totp, setup: setup.body, recoveryCodes: enabled.body.recoveryCodes };
}

const user = (who: SignedInUser) =>
  app.database.prisma.user.findUniqueOrThrow({
    where: { id: who.id },
    include: { recoveryCodes: true },
  });

const auditActions = async (who: SignedInUser) =>
  (await app.database.prisma.auditEvent.findMany({ where: { subjectId: who.id }, orderBy: { createdAt: 'asc' } })).map(
    (e) => e.action,
  );

describe('setting two-factor up', () => {
  it('gives an otpauth URL and QR code for a new secret kept only sealed, not yet on', async () => {
    const who = await signedInUser(app);
    const response = await sendBody(app, who.cookie, 'POST', '/api/auth/two-factor/setup');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    const totp = URI.parse(body.otpauthUrl) as TOTP;
    expect(totp).toBeInstanceOf(TOTP);
    expect(totp).toMatchObject({ issuer: 'Scoutbase', label: who.email, digits: 6, period: 30, algorithm: 'SHA1' });
    expect(totp.secret.bytes.length).toBe(20);
    expect(body.secret).toBe(totp.secret.base32);
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(body.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');

    const row = await user(who);
    expect(row.twoFactorSecret).toBeTruthy();
    expect(row.twoFactorSecret).not.toContain(totp.secret.base32);
    expect(row.twoFactorSecret).not.toContain(totp.secret.hex);
    expect(Buffer.from(row.twoFactorSecret?.slice(3) ?? '', 'base64url').includes(Buffer.from(totp.secret.bytes))).toBe(
      false,
    );
    expect(row.twoFactorEnabledAt).toBeNull();
    expect((await send(app, who.cookie, 'GET', '/api/auth/user')).body).toMatchObject({ twoFactorEnabled: false });

    // A pending secret does not guard sign-in yet.
    expect((await signInWith(who)).signedIn).toBe(true);
  });

  it('turns on with a code from the app, gives ten recovery codes once and keeps only their hashes', async () => {
    const who = await signedInUser(app);
    const setup = await send(app, who.cookie, 'POST', '/api/auth/two-factor/setup');
    const totp = URI.parse(setup.body.otpauthUrl) as TOTP;

    const wrong = await send(app, who.cookie, 'POST', '/api/auth/two-factor/enable', {
      code: totp.generate({ timestamp: Date.now() + 10 * STEP_MS }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/code is not right/);
    const missing = await send(app, who.cookie, 'POST', '/api/auth/two-factor/enable', {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/6-digit code/);

    const { status, body } = await send(app, who.cookie, 'POST', '/api/auth/two-factor/enable', {
      code: totp.generate(),
    });
    expect(status).toBe(200);
    expect(body.recoveryCodes).toHaveLength(10);
    expect(new Set(body.recoveryCodes).size).toBe(10);
    for (const code of body.recoveryCodes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);

    const row = await user(who);
    expect(row.twoFactorEnabledAt).toBeInstanceOf(Date);
    expect(row.recoveryCodes).toHaveLength(10);
    const stored = JSON.stringify(row.recoveryCodes);
    for (const code of body.recoveryCodes as string[]) {
      expect(stored.toLowerCase()).not.toContain(code.replace('-', ''));
      expect(stored.toLowerCase()).not.toContain(code);
    }
    for (const r of row.recoveryCodes) expect(r.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await auditActions(who)).toContain('two_factor_enabled');
    expect((await send(app, who.cookie, 'GET', '/api/auth/user')).body).toMatchObject({ twoFactorEnabled: true });

    // Once on, it is not set up again (turn it off first), and the codes are not shown again.
    const again = await send(app, who.cookie, 'POST', '/api/auth/two-factor/setup');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Two-factor sign-in is already on.');
    expect((await send(app, who.cookie, 'POST', '/api/auth/two-factor/enable', { code: totp.generate() })).status).toBe(
      409,
    );
  });

  it('refuses to turn on without a setup first', async () => {
    const who = await signedInUser(app);
    const { status, body } = await send(app, who.cookie, 'POST', '/api/auth/two-factor/enable', { code: '123456' });
    expect(status).toBe(409);
    expect(body.message).toMatch(/Start setting up/);
  });

  it('answers 401 to someone signed out', async () => {
    for (const path of ['setup', 'enable', 'disable']) {
      expect((await sendBody(app, undefined, 'POST', `/api/auth/two-factor/${path}`, {})).status).toBe(401);
    }
  });
});

describe('signing in with two-factor on', () => {
  it('sets no session without a code, and says a code is needed only to the one who knows the password', async () => {
    const who = await signedInUser(app);
    await turnOn(who);

    const noCode = await signInWith(who);
    expect(noCode).toMatchObject({ signedIn: false, error: 'CredentialsSignin', code: 'two_factor_required' });

    // A wrong password learns nothing about two-factor, with or without a code.
    for (const code of [undefined, '123456']) {
      const wrong = await signInWith({ ...who, password: 'not the password' }, code);
      expect(wrong.signedIn).toBe(false);
      expect(wrong.error).toBe('CredentialsSignin');
      expect(wrong.code).not.toMatch(/two_factor/);
    }
  });

  it('signs in with a valid code once: the same code twice is refused', async () => {
    const start = frozenClock();
    const who = await signedInUser(app);
    const { totp } = await turnOn(who);

    // The code that turned it on is used up.
    expect(await signInWith(who, totp.generate())).toMatchObject({ signedIn: false, code: 'two_factor_invalid' });

    clockAt(start, 1);
    const code = totp.generate();
    expect(await signInWith(who, code)).toMatchObject({ signedIn: true });
    expect(await signInWith(who, code)).toMatchObject({ signedIn: false, code: 'two_factor_invalid' });
    // An older code (still inside the ±1 window) is no good after a newer one either.
    expect(await signInWith(who, totp.generate({ timestamp: start }))).toMatchObject({ signedIn: false });

    clockAt(start, 2);
    expect(await signInWith(who, totp.generate())).toMatchObject({ signedIn: true });
    expect(await signInWith(who, '000000')).toMatchObject({ signedIn: false, code: 'two_factor_invalid' });
    expect(await auditActions(who)).toContain('sign_in_failed');
  });

  it('takes a recovery code once, however it is typed', async () => {
    const who = await signedInUser(app);
    const { recoveryCodes } = await turnOn(who);
    const [first = '', second = ''] = recoveryCodes;

    expect(await signInWith(who, first)).toMatchObject({ signedIn: true });
    expect(await signInWith(who, first)).toMatchObject({ signedIn: false, code: 'two_factor_invalid' });
    // Typed in capitals, without its dash, with an O for each 0 and an I for each 1.
    const retyped = second.replace('-', '').toUpperCase().replace(/0/g, 'O').replace(/1/g, 'I');
    expect(await signInWith(who, ` ${retyped} `)).toMatchObject({ signedIn: true });

    const row = await user(who);
    expect(row.recoveryCodes.filter((c) => c.usedAt)).toHaveLength(2);
    expect((await auditActions(who)).filter((a) => a === 'recovery_code_used')).toHaveLength(2);
  });

  it('lets one recovery code through once even when it is sent twice at the same moment', async () => {
    const who = await signedInUser(app);
    const { recoveryCodes } = await turnOn(who);
    const results = await Promise.all([signInWith(who, recoveryCodes[0]), signInWith(who, recoveryCodes[0])]);
    expect(results.filter((r) => r.signedIn)).toHaveLength(1);
  });

  it('counts wrong codes as failed sign-ins: after five, even the right code waits', async () => {
    const start = frozenClock();
    const who = await signedInUser(app);
    const { totp } = await turnOn(who);
    for (let i = 0; i < 5; i++) await signInWith(who, `00000${i}`);
    clockAt(start, 1);
    const locked = await signInWith(who, totp.generate());
    expect(locked.signedIn).toBe(false);
    expect(locked.code).toMatch(/^too_many_attempts:\d+$/);
  });
});

describe('turning two-factor off', () => {
  it('needs the password and a code, then forgets the secret and the recovery codes', async () => {
    const start = frozenClock();
    const who = await signedInUser(app);
    const { totp, recoveryCodes } = await turnOn(who);
    const disable = (body: unknown) => send(app, who.cookie, 'POST', '/api/auth/two-factor/disable', body);

    clockAt(start, 1);
    const wrongPassword = await disable({ password: 'not the password', code: totp.generate() });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.message).toBe('Your password is not right.');
    const wrongCode = await disable({ password: who.password, code: '000000' });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.message).toBe('That code is not right.');
    const noCode = await disable({ password: who.password });
    expect(noCode.status).toBe(400);
    expect((await user(who)).twoFactorEnabledAt).not.toBeNull();

    // A recovery code does as well as a code from the app (a lost phone).
    const off = await disable({ password: who.password, code: recoveryCodes[3] });
    expect(off.status).toBe(200);
    const row = await user(who);
    expect(row).toMatchObject({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null });
    expect(row.recoveryCodes).toEqual([]);
    expect(await auditActions(who)).toContain('two_factor_disabled');
    expect((await send(app, who.cookie, 'GET', '/api/auth/user')).body).toMatchObject({ twoFactorEnabled: false });

    expect(await signInWith(who)).toMatchObject({ signedIn: true });
    expect((await disable({ password: who.password, code: totp.generate() })).status).toBe(409);
  });

  it('is throttled like sign-in', async () => {
    const who = await signedInUser(app);
    await turnOn(who);
    for (let i = 0; i < 5; i++) {
      await send(app, who.cookie, 'POST', '/api/auth/two-factor/disable', { password: `wrong ${i}`, code: '000000' });
    }
    const locked = await send(app, who.cookie, 'POST', '/api/auth/two-factor/disable', {
      password: who.password,
      code: '000000',
    });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/Too many failed attempts/);
  });
});

describe('an instance that requires two-factor', () => {
  it('tells the app who still has to set it up', async () => {
    const who = await signedInUser(app);
    const profile = async () => (await send(app, who.cookie, 'GET', '/api/auth/user')).body;
    expect(await profile()).toMatchObject({ twoFactorRequired: false });
    await app.database.prisma.instanceSettings.upsert({
      where: { id: 1 },
      create: { id: 1, requireTwoFactor: true },
      update: { requireTwoFactor: true },
    });
    try {
      expect(await profile()).toMatchObject({ twoFactorEnabled: false, twoFactorRequired: true });
      await turnOn(who);
      expect(await profile()).toMatchObject({ twoFactorEnabled: true, twoFactorRequired: false });
    } finally {
      await app.database.prisma.instanceSettings.update({ where: { id: 1 }, data: { requireTwoFactor: false } });
    }
  });
});
