import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { Db } from '../infra/db/database.ts';
import { ConflictError, TooManyRequestsError, ValidationError } from '../shared/errors.ts';
import { decryptToken, derivedKey, encryptToken } from '../shared/sealed.ts';
import { parse } from '../shared/validation.ts';
import { recordAudit } from './audit.ts';
import { verifyPassword } from './passwords.ts';
import type { SignInGate } from './throttle.ts';

// Two-factor sign-in: a TOTP (RFC 6238) secret per person, sealed at rest under a key derived from
// AUTH_SECRET (a copy of the database alone cannot mint codes), plus ten recovery codes kept only
// as sha256 hashes. It guards the password sign-in; identity providers have their own second factor.

const ISSUER = 'Scoutbase';
const RECOVERY_CODES = 10;
// Crockford's base32: no I, L, O or U, so nothing reads as another letter or a digit; what is typed
// as o, i or l is read as the digit it looks like.
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** The key that seals two-factor secrets, derived from the instance secret. */
export function twoFactorKey(secret: string): Buffer {
  return derivedKey(secret, 'scoutbase-two-factor', 'totp-secret-encryption');
}

/** Who is asking and from where, for the audit log. */
export interface RequestOrigin {
  ipAddress?: string | null;
  userAgent?: string | null;
}

interface Person {
  id: string;
  email: string;
}

function totp(email: string, secret: Secret) {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: 30, secret });
}

/** What someone typed as a code: a 6-digit TOTP, a recovery code (any case, dashes and spaces ignored), or neither. */
function readCode(raw: unknown): { kind: 'totp'; token: string } | { kind: 'recovery'; code: string } | null {
  if (typeof raw !== 'string') return null;
  const plain = raw.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(plain)) return { kind: 'totp', token: plain };
  const code = plain.replace(/o/g, '0').replace(/[il]/g, '1');
  if (code.length === 10 && [...code].every((c) => RECOVERY_ALPHABET.includes(c))) return { kind: 'recovery', code };
  return null;
}

function recoveryCodeHash(code: string) {
  return createHash('sha256').update(code).digest('hex');
}

/** Ten codes like `k7d2q-xm4pa`: 50 random bits each. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    // 256 is a multiple of 32: masking a byte to 5 bits keeps every letter equally likely.
    const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * Accepts a TOTP code for the person's secret at most once: the time step it belongs to must be
 * later than the last one accepted, and claiming it is one conditional update, so the same code
 * sent twice at once passes only once.
 */
async function acceptTotp(db: Db, person: Person, secret: Secret, token: string): Promise<boolean> {
  const otp = totp(person.email, secret);
  const delta = otp.validate({ token, window: 1 });
  if (delta === null) return false;
  const step = otp.counter() + delta;
  const claimed = await db.user.updateMany({
    where: { id: person.id, OR: [{ twoFactorLastStep: null }, { twoFactorLastStep: { lt: step } }] },
    data: { twoFactorLastStep: step },
  });
  return claimed.count === 1;
}

/** Uses up one recovery code; a used code and an unknown one are refused alike. */
async function acceptRecoveryCode(db: Db, person: Person, code: string, origin: RequestOrigin): Promise<boolean> {
  // Looked up by its hash: the code itself is never compared, and the update that marks it used
  // is conditional, so two sign-ins with one code cannot both pass.
  const used = await db.recoveryCode.updateMany({
    where: { userId: person.id, codeHash: recoveryCodeHash(code), usedAt: null },
    data: { usedAt: new Date() },
  });
  if (used.count !== 1) return false;
  const left = await db.recoveryCode.count({ where: { userId: person.id, usedAt: null } });
  await recordAudit(db, { action: 'recovery_code_used', actor: person, ...origin, metadata: { left } });
  return true;
}

/** Checks a TOTP or recovery code against the person's enabled two-factor secret, using it up. */
async function acceptCode(db: Db, key: Buffer, person: Person, stored: string, raw: unknown, origin: RequestOrigin) {
  const code = readCode(raw);
  if (!code) return false;
  if (code.kind === 'recovery') return acceptRecoveryCode(db, person, code.code, origin);
  const base32 = decryptToken(key, stored);
  // Sealed under another AUTH_SECRET: no code can match; recovery codes still work.
  if (!base32) return false;
  return acceptTotp(db, person, Secret.fromBase32(base32), code.token);
}

// ───────────── sign-in ─────────────

/** Why a right password did not sign in: no code was sent, or a wrong one. */
export class SecondFactorError extends Error {
  constructor(readonly reason: 'two_factor_required' | 'two_factor_invalid') {
    super(reason === 'two_factor_required' ? 'Enter the code from your authenticator app.' : 'That code is not right.');
  }
}

/**
 * The second step of a password sign-in, once the password was right. With two-factor on it
 * throws SecondFactorError unless `code` is a valid TOTP or unused recovery code.
 */
export async function requireSecondFactor(
  db: Db,
  key: Buffer,
  user: Person & { twoFactorEnabledAt: Date | null; twoFactorSecret: string | null },
  code: unknown,
  origin: RequestOrigin,
) {
  if (!user.twoFactorEnabledAt || !user.twoFactorSecret) return;
  if (typeof code !== 'string' || code.trim() === '') throw new SecondFactorError('two_factor_required');
  if (!(await acceptCode(db, key, user, user.twoFactorSecret, code, origin))) {
    await recordAudit(db, {
      action: 'sign_in_failed',
      actor: user,
      ...origin,
      metadata: { reason: 'two_factor_invalid' },
    });
    throw new SecondFactorError('two_factor_invalid');
  }
}

// ───────────── turning it on and off (Settings › Security) ─────────────

/** Starts (or starts over) setting two-factor up: a new secret, sealed, that counts only once enabled. */
export async function startTwoFactorSetup(db: Db, key: Buffer, viewer: Person) {
  const user = await db.user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: { email: true, passwordHash: true, twoFactorEnabledAt: true },
  });
  if (user.twoFactorEnabledAt) throw new ConflictError('Two-factor sign-in is already on.');
  if (!user.passwordHash) {
    throw new ConflictError('Your account signs in through an identity provider; its own two-factor applies.');
  }
  const secret = new Secret({ size: 20 });
  await db.user.update({
    where: { id: viewer.id },
    data: { twoFactorSecret: encryptToken(key, secret.base32), twoFactorLastStep: null },
  });
  const otpauthUrl = totp(user.email, secret).toString();
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return {
    otpauthUrl,
    /** The same URL as a QR code, an SVG data URL for an <img>. */
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    /** For typing into an app by hand. */
    secret: secret.base32,
  };
}

const enableInput = z.object({ code: z.string({ message: 'Enter the 6-digit code from your app.' }) });

/** Turns two-factor on once a code from the pending secret checks out; returns the recovery codes, shown once. */
export async function enableTwoFactor(db: Db, key: Buffer, viewer: Person, input: unknown, origin: RequestOrigin) {
  const { code } = parse(enableInput, input);
  const user = await db.user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: { email: true, twoFactorSecret: true, twoFactorEnabledAt: true },
  });
  if (user.twoFactorEnabledAt) throw new ConflictError('Two-factor sign-in is already on.');
  const base32 = user.twoFactorSecret ? decryptToken(key, user.twoFactorSecret) : null;
  if (!base32) throw new ConflictError('Start setting up two-factor sign-in first.');
  const token = readCode(code);
  if (token?.kind !== 'totp') throw new ValidationError('Enter the 6-digit code from your app.', 'code');
  if (!(await acceptTotp(db, { id: viewer.id, email: user.email }, Secret.fromBase32(base32), token.token))) {
    throw new ValidationError('That code is not right. Check that your phone’s clock is set automatically.', 'code');
  }
  const recoveryCodes = newRecoveryCodes();
  await db.$transaction(async (tx) => {
    // Conditional on still being off, and on the secret the code was checked against.
    const turnedOn = await tx.user.updateMany({
      where: { id: viewer.id, twoFactorEnabledAt: null, twoFactorSecret: user.twoFactorSecret },
      data: { twoFactorEnabledAt: new Date() },
    });
    if (turnedOn.count !== 1) throw new ConflictError('Two-factor sign-in changed meanwhile. Start again.');
    await tx.recoveryCode.deleteMany({ where: { userId: viewer.id } });
    await tx.recoveryCode.createMany({
      data: recoveryCodes.map((c) => ({
        userId: viewer.id,
        codeHash: recoveryCodeHash(c.replace('-', '')),
      })),
    });
    await recordAudit(tx, { action: 'two_factor_enabled', actor: { id: viewer.id, email: user.email }, ...origin });
  });
  return { recoveryCodes };
}

const disableInput = z.object({
  password: z.string({ message: 'Enter your password.' }).min(1, 'Enter your password.'),
  code: z
    .string({ message: 'Enter a code from your app or a recovery code.' })
    .min(1, 'Enter a code from your app or a recovery code.'),
});

/**
 * Turns two-factor off: needs the password and a code, so a session left open on someone else's
 * screen cannot. Throttled with sign-in's buckets (a wrong try counts as a failed sign-in).
 */
export async function disableTwoFactor(
  db: Db,
  key: Buffer,
  gate: SignInGate,
  viewer: Person,
  input: unknown,
  origin: RequestOrigin,
) {
  const { password, code } = parse(disableInput, input);
  const user = await db.user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: { email: true, passwordHash: true, twoFactorSecret: true, twoFactorEnabledAt: true },
  });
  if (!user.twoFactorEnabledAt || !user.twoFactorSecret) throw new ConflictError('Two-factor sign-in is not on.');
  const wait = await gate.enter(user.email, origin.ipAddress ?? undefined);
  if (wait > 0) throw new TooManyRequestsError(`Too many failed attempts. Try again in ${wait} seconds.`, wait);
  if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    throw new ValidationError('Your password is not right.', 'password');
  }
  const person = { id: viewer.id, email: user.email };
  if (!(await acceptCode(db, key, person, user.twoFactorSecret, code, origin))) {
    throw new ValidationError('That code is not right.', 'code');
  }
  await gate.succeeded(user.email, origin.ipAddress ?? undefined);
  await db.$transaction(async (tx) => {
    await tx.user.update({
      where: { id: viewer.id },
      data: { twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null },
    });
    await tx.recoveryCode.deleteMany({ where: { userId: viewer.id } });
    await recordAudit(tx, { action: 'two_factor_disabled', actor: person, ...origin });
  });
}

// ───────────── the instance's rule ─────────────

/**
 * Whether this person must set two-factor up before using the app: an administrator requires it
 * for everyone (InstanceSettings.requireTwoFactor), they sign in with a password, and it is not on yet.
 */
export async function twoFactorRequiredFor(db: Db, userId: string): Promise<boolean> {
  const settings = await db.instanceSettings.findUnique({ where: { id: 1 }, select: { requireTwoFactor: true } });
  if (!settings?.requireTwoFactor) return false;
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { passwordHash: true, twoFactorEnabledAt: true },
  });
  return Boolean(user?.passwordHash) && !user?.twoFactorEnabledAt;
}
