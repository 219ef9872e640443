import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailsTo, tokenMailedTo } from '../../test/mail.ts';
import { person, send, sendBody, signedInUser, signIn, testApp, type TestApp } from '../../test/harness.ts';
import { createUserAsAdmin } from '../admin/commands.ts';
import { hashAccountToken, INVALID_LINK } from './account-tokens.ts';
import { userForIdentity } from './accounts.ts';
import { RESET_SUBJECT, TAKEN_SUBJECT, VERIFY_SUBJECT } from './mails.ts';
import { RESET_REQUEST_ANSWER, sendPasswordReset } from './recovery.ts';
import { SIGN_UP_ANSWER } from './verification.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const db = () => app.database.prisma;
const audit = (userId: string) =>
  db()
    .auditEvent.findMany({ where: { subjectId: userId }, orderBy: { createdAt: 'asc' } })
    .then((rows) => rows.map((r) => r.action));
/** The person's profile, or the status of a refusal (a 401 answers in plain text). */
async function profile(cookie: string | undefined) {
  const response = await sendBody(app, cookie, 'GET', '/api/auth/user');
  return { status: response.status, body: response.ok ? await response.json() : null };
}

/** Signs up (no verification) and signs in; the answer, the person and their cookie. */
async function unverified(overrides = {}) {
  const who = person(overrides);
  const answer = await send(app, undefined, 'POST', '/api/auth/signup', who);
  const { jar } = await signIn(app, who);
  const me = await profile(jar.header);
  return { ...who, answer, id: me.body.id as string, cookie: jar.header };
}

describe('sign-up', () => {
  it('answers the same whether or not the address has an account, and tells the holder', async () => {
    const holder = await signedInUser(app, { name: 'Hana Holder' });
    const fresh = person();
    const first = await send(app, undefined, 'POST', '/api/auth/signup', fresh);
    const again = await send(app, undefined, 'POST', '/api/auth/signup', {
      ...person(),
      email: `  ${holder.email.toUpperCase()} `,
    });
    expect(first).toEqual({ status: 202, body: { message: SIGN_UP_ANSWER, email: fresh.email } });
    expect(again).toEqual({ status: 202, body: { message: SIGN_UP_ANSWER, email: holder.email } });

    // The holder is told someone tried, with a way in; their account is unchanged.
    const told = await mailsTo(app, holder.email);
    expect(told.map((m) => m.subject)).toContain(TAKEN_SUBJECT);
    expect(told.find((m) => m.subject === TAKEN_SUBJECT)?.text).toContain('/signin');
    expect((await signIn(app, holder)).jar.has('authjs.session-token')).toBe(true);
    // The newcomer gets a verification link.
    expect((await mailsTo(app, fresh.email)).map((m) => m.subject)).toEqual([VERIFY_SUBJECT]);
    expect(await audit((await db().user.findUniqueOrThrow({ where: { email: fresh.email } })).id)).toEqual(['sign_up']);
  });

  it('mails the holder of a taken address only a few times, however often someone tries', async () => {
    const holder = await signedInUser(app);
    for (let i = 0; i < 6; i++) {
      const tried = await send(app, undefined, 'POST', '/api/auth/signup', { ...person(), email: holder.email });
      expect(tried.status).toBe(202);
    }
    expect((await mailsTo(app, holder.email)).filter((m) => m.subject === TAKEN_SUBJECT)).toHaveLength(3);
  });
});

describe('verifying an address', () => {
  it('lets an unverified account sign in, and the e-mailed link verifies it once', async () => {
    const who = await unverified();
    expect(who.answer.status).toBe(202);
    expect((await profile(who.cookie)).body).toMatchObject({ id: who.id, emailVerified: false });

    const token = await tokenMailedTo(app, who.email, '/verify-email');
    // Stored hashed: the database holds the token's sha256 and nowhere the token itself.
    const rows = await db().accountToken.findMany({ where: { userId: who.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'verify_email', tokenHash: hashAccountToken(token), email: who.email });
    expect(JSON.stringify(rows)).not.toContain(token);
    const ttl = (rows[0]?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);

    const verified = await send(app, undefined, 'POST', '/api/auth/verify-email', { token });
    expect(verified).toEqual({ status: 200, body: { message: 'Your e-mail address is verified.', email: who.email } });
    expect((await profile(who.cookie)).body.emailVerified).toBe(true);
    expect(await audit(who.id)).toEqual(['sign_up', 'sign_in', 'email_verified']);

    // Used, unknown and malformed links all get one answer.
    const used = await send(app, undefined, 'POST', '/api/auth/verify-email', { token });
    const unknown = await send(app, undefined, 'POST', '/api/auth/verify-email', { token: 'A'.repeat(43) });
    const garbage = await send(app, undefined, 'POST', '/api/auth/verify-email', { token: 42 });
    for (const answer of [used, unknown, garbage]) {
      expect(answer).toEqual({ status: 400, body: { message: INVALID_LINK, code: 'INVALID_LINK' } });
    }
  });

  it('refuses an expired link with the same answer', async () => {
    const who = await unverified();
    const token = await tokenMailedTo(app, who.email, '/verify-email');
    await db().accountToken.updateMany({
      where: { tokenHash: hashAccountToken(token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await send(app, undefined, 'POST', '/api/auth/verify-email', { token });
    expect(expired).toEqual({ status: 400, body: { message: INVALID_LINK, code: 'INVALID_LINK' } });
    expect((await profile(who.cookie)).body.emailVerified).toBe(false);
  });

  it('does not verify an address the account no longer has', async () => {
    const who = await unverified();
    const token = await tokenMailedTo(app, who.email, '/verify-email');
    const other = `moved-${crypto.randomUUID()}@example.com`;
    await db().user.update({ where: { id: who.id }, data: { email: other } });
    const answer = await send(app, undefined, 'POST', '/api/auth/verify-email', { token });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(INVALID_LINK);
    expect((await db().user.findUniqueOrThrow({ where: { id: who.id } })).emailVerified).toBeNull();
  });

  it('sends a new link when asked (signed in, a few times only), not to a verified account', async () => {
    const who = await unverified();
    expect((await sendBody(app, undefined, 'POST', '/api/auth/verify-email/resend')).status).toBe(401);
    const resent = await send(app, who.cookie, 'POST', '/api/auth/verify-email/resend');
    expect(resent).toEqual({ status: 202, body: { message: `We sent a new link to ${who.email}.`, email: who.email } });
    expect((await mailsTo(app, who.email)).map((m) => m.subject)).toEqual([VERIFY_SUBJECT, VERIFY_SUBJECT]);
    await send(app, who.cookie, 'POST', '/api/auth/verify-email/resend');
    await send(app, who.cookie, 'POST', '/api/auth/verify-email/resend');
    const flooded = await send(app, who.cookie, 'POST', '/api/auth/verify-email/resend');
    expect(flooded.status).toBe(429);
    expect(flooded.body.message).toMatch(/Try again in \d+ minutes/);

    const done = await signedInUser(app);
    const already = await send(app, done.cookie, 'POST', '/api/auth/verify-email/resend');
    expect(already).toMatchObject({ status: 409, body: { message: 'Your e-mail address is already verified.' } });
  });

  it('accounts made by an administrator, and by a provider that verified the address, are verified', async () => {
    const made = await createUserAsAdmin(app.services.db, app.config, {
      name: 'Ada Admin',
      email: `ada-${crypto.randomUUID()}@example.com`,
      password: 'correct horse battery',
    });
    expect(made.emailVerified).toBeInstanceOf(Date);

    const google = await userForIdentity(app.services.db, {
      provider: 'google',
      providerAccountId: crypto.randomUUID(),
      email: `gia-${crypto.randomUUID()}@example.com`,
      emailVerified: true,
      name: 'Gia Google',
    });
    expect(google.emailVerified).toBeInstanceOf(Date);
  });

  it('a provider that proves an unverified account’s address verifies it, and drops the password nobody proved', async () => {
    // Someone signed up with the address before its owner (a pre-hijacked account) and is signed in.
    const squatter = await unverified();
    const owner = await userForIdentity(app.services.db, {
      provider: 'google',
      providerAccountId: crypto.randomUUID(),
      email: squatter.email,
      emailVerified: true,
      name: 'Real Owner',
    });
    expect(owner.id).toBe(squatter.id);
    const row = await db().user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(row.emailVerified).toBeInstanceOf(Date);
    expect(row.passwordHash).toBeNull();
    expect((await profile(squatter.cookie)).status).toBe(401);
    expect((await signIn(app, squatter)).jar.has('authjs.session-token')).toBe(false);
  });
});

describe('a forgotten password', () => {
  it('answers the same for any address and e-mails a link only to an account', async () => {
    const who = await signedInUser(app);
    const nobody = `nobody-${crypto.randomUUID()}@example.com`;
    const known = await send(app, undefined, 'POST', '/api/auth/password-reset', { email: who.email.toUpperCase() });
    const unknown = await send(app, undefined, 'POST', '/api/auth/password-reset', { email: nobody });
    expect(known).toEqual({ status: 202, body: { message: RESET_REQUEST_ANSWER } });
    expect(unknown).toEqual(known);
    expect((await mailsTo(app, who.email)).map((m) => m.subject)).toContain(RESET_SUBJECT);
    expect(await mailsTo(app, nobody)).toEqual([]);
    expect(await audit(who.id)).toContain('password_reset_requested');
    const bad = await send(app, undefined, 'POST', '/api/auth/password-reset', { email: 'not an address' });
    expect(bad.status).toBe(400);
  });

  it('sets the password with a single-use link of 30 minutes and ends every session', async () => {
    const who = await signedInUser(app);
    const elsewhere = await signIn(app, who);
    await send(app, undefined, 'POST', '/api/auth/password-reset', { email: who.email });
    const token = await tokenMailedTo(app, who.email, '/reset-password');
    const [row] = await db().accountToken.findMany({ where: { userId: who.id, purpose: 'reset_password' } });
    expect(row?.tokenHash).toBe(hashAccountToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000);

    // A password too short is refused without using the link up.
    const short = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', { token, password: 'short' });
    expect(short).toMatchObject({ status: 400, body: { message: 'Password must be at least 8 characters.' } });

    const done = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'a brand new secret',
    });
    expect(done).toEqual({
      status: 200,
      body: { message: 'Your new password is set. Sign in with it.', email: who.email },
    });
    // Every session ended; the old password is gone, the new one works.
    expect((await profile(who.cookie)).status).toBe(401);
    expect((await profile(elsewhere.jar.header)).status).toBe(401);
    expect(await db().session.count({ where: { userId: who.id } })).toBe(0);
    expect((await signIn(app, who)).jar.has('authjs.session-token')).toBe(false);
    expect((await signIn(app, { ...who, password: 'a brand new secret' })).jar.has('authjs.session-token')).toBe(true);
    expect(await audit(who.id)).toContain('password_reset');

    // Used once only; and a used link answers as an unknown one does.
    const reused = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'yet another secret',
    });
    const unknown = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', {
      token: 'B'.repeat(43),
      password: 'yet another secret',
    });
    expect(reused).toEqual({ status: 400, body: { message: INVALID_LINK, code: 'INVALID_LINK' } });
    expect(unknown).toEqual(reused);
  });

  it('refuses an expired link, and a verification link used as a reset link', async () => {
    const who = await unverified();
    const verifyToken = await tokenMailedTo(app, who.email, '/verify-email');
    const wrongKind = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', {
      token: verifyToken,
      password: 'a brand new secret',
    });
    expect(wrongKind).toEqual({ status: 400, body: { message: INVALID_LINK, code: 'INVALID_LINK' } });
    await send(app, undefined, 'POST', '/api/auth/password-reset', { email: who.email });
    const token = await tokenMailedTo(app, who.email, '/reset-password');
    await db().accountToken.updateMany({
      where: { tokenHash: hashAccountToken(token) },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const expired = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'a brand new secret',
    });
    expect(expired).toEqual(wrongKind);
  });

  it('verifies the address: the link proved the mailbox', async () => {
    const who = await unverified();
    await send(app, undefined, 'POST', '/api/auth/password-reset', { email: who.email });
    const token = await tokenMailedTo(app, who.email, '/reset-password');
    await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', { token, password: 'a brand new secret' });
    expect((await db().user.findUniqueOrThrow({ where: { id: who.id } })).emailVerified).toBeInstanceOf(Date);
  });

  it('throttles requests for one address like sign-in', async () => {
    const who = await signedInUser(app);
    const answers = [];
    for (let i = 0; i < 7; i++) {
      answers.push((await send(app, undefined, 'POST', '/api/auth/password-reset', { email: who.email })).status);
    }
    expect(answers.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(answers.at(-1)).toBe(429);
  });

  it('an administrator can send a person a reset link', async () => {
    const who = await signedInUser(app);
    await sendPasswordReset(app.services, who.id);
    expect(await tokenMailedTo(app, who.email, '/reset-password')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('changing a password', () => {
  it('needs the current one, keeps this session and ends the others', async () => {
    const who = await signedInUser(app);
    const elsewhere = await signIn(app, who);
    expect((await sendBody(app, undefined, 'POST', '/api/auth/password', {})).status).toBe(401);
    const wrong = await send(app, who.cookie, 'POST', '/api/auth/password', {
      currentPassword: 'not my password',
      newPassword: 'a brand new secret',
    });
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Your current password is not right.' } });
    const short = await send(app, who.cookie, 'POST', '/api/auth/password', {
      currentPassword: who.password,
      newPassword: 'short',
    });
    expect(short.status).toBe(400);

    const changed = await send(app, who.cookie, 'POST', '/api/auth/password', {
      currentPassword: who.password,
      newPassword: 'a brand new secret',
    });
    expect(changed.status).toBe(200);
    expect((await profile(who.cookie)).status).toBe(200);
    expect((await profile(elsewhere.jar.header)).status).toBe(401);
    expect((await signIn(app, who)).jar.has('authjs.session-token')).toBe(false);
    expect((await signIn(app, { ...who, password: 'a brand new secret' })).jar.has('authjs.session-token')).toBe(true);
    expect(await audit(who.id)).toContain('password_changed');
  });

  it('a reset link asked for before the change no longer works after it', async () => {
    const who = await signedInUser(app);
    await send(app, undefined, 'POST', '/api/auth/password-reset', { email: who.email });
    const token = await tokenMailedTo(app, who.email, '/reset-password');
    await send(app, who.cookie, 'POST', '/api/auth/password', {
      currentPassword: who.password,
      newPassword: 'a brand new secret',
    });
    const late = await send(app, undefined, 'POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'the attackers secret',
    });
    expect(late.status).toBe(400);
  });

  it('counts wrong current passwords like failed sign-ins', async () => {
    const who = await signedInUser(app);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const attempt = await send(app, who.cookie, 'POST', '/api/auth/password', {
        currentPassword: `guess number ${i}`,
        newPassword: 'a brand new secret',
      });
      statuses.push(attempt.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});
