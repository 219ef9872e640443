import { z } from 'zod';
import type { SignInThrottle } from '../config.ts';
import type { Services } from '../context.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import { appBaseUrl } from '../notifications/email.ts';
import { publishNotifications } from '../notifications/rules.ts';
import { normalizeEmail, sameEmail } from '../shared/email.ts';
import { TooManyRequestsError, ValidationError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { consumeAccountToken, InvalidLinkError, issueAccountToken, retireAccountTokens } from './account-tokens.ts';
import { recordAudit } from './audit.ts';
import { passwordResetMail } from './mails.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { endSessions, type RequestOrigin } from './session-control.ts';
import type { Viewer } from './sessions.ts';
import { type SignInGate, signInGate } from './throttle.ts';
import { type AccountServices, markEmailVerified } from './verification.ts';

// Passwords: a forgotten one is reset through a link e-mailed to the account's address; a known
// one is changed by its holder. Either way the sessions that knew only the old one end.

export const RESET_TTL_SECONDS = 30 * 60;

export const RESET_REQUEST_ANSWER = 'If an account exists for that address, we sent a link.';

const newPassword = z
  .string({ error: 'Enter a new password.' })
  .min(8, 'Password must be at least 8 characters.')
  .max(1024, 'Password is too long.');

const resetRequestInput = z.object({
  email: z
    .string({ error: 'Enter your e-mail address.' })
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Enter a valid email address.' })),
});

const resetConfirmInput = z.object({ token: z.unknown(), password: newPassword });

const changeInput = z.object({
  currentPassword: z.string({ error: 'Enter your current password.' }).min(1, 'Enter your current password.'),
  newPassword,
});

/** The throttles of these steps, each with sign-in's rules and counts of its own. */
export interface RecoveryGates {
  /** Reset requests: per address asked about and per client address (mail to one person is bounded). */
  resetRequests: SignInGate;
  /** Links opened (reset or verify), per client address only: nobody's account is named yet. */
  links: SignInGate;
  /** A password change checks the current password: counted as a sign-in attempt of that account. */
  signIn: SignInGate;
}

export function recoveryGates(limiter: RateLimiter, rules: SignInThrottle, signIn: SignInGate): RecoveryGates {
  return {
    resetRequests: signInGate(limiter, rules, 'password-reset'),
    links: signInGate(limiter, { perAccount: [], perAddress: rules.perAddress }, 'account-link'),
    signIn,
  };
}

async function pass(gate: SignInGate, key: string, address: string | null, what: string) {
  const wait = await gate.enter(key, address ?? undefined);
  if (wait > 0) throw new TooManyRequestsError(`Too many ${what}. Try again in ${wait} seconds.`, wait);
}

/** Passes a link (verification or reset) through the per-address throttle. */
export function passLinkGate(gates: RecoveryGates, origin: RequestOrigin) {
  return pass(gates.links, '', origin.ipAddress, 'attempts');
}

/** Issues a reset link for the account and e-mails it to the account's address. */
async function mailResetLink(
  services: AccountServices,
  user: { id: string; email: string; firstName: string | null; displayName: string | null },
) {
  const token = await issueAccountToken(services.db, {
    userId: user.id,
    purpose: 'reset_password',
    email: user.email,
    ttlSeconds: RESET_TTL_SECONDS,
  });
  const url = `${appBaseUrl(services.config)}/reset-password?token=${token}`;
  return passwordResetMail(user.email, user.firstName || user.displayName || null, url);
}

const resetSelect = { id: true, email: true, firstName: true, displayName: true, disabledAt: true } as const;

/**
 * "Forgot password?": the same answer for any address. Whether there is an account, and the link,
 * are worked out after the answer, in the mail queue's background step, so not even the answer's
 * time says whether the address has an account.
 */
export async function requestPasswordReset(
  services: AccountServices,
  gates: RecoveryGates,
  input: unknown,
  origin: RequestOrigin,
) {
  const { email } = parse(resetRequestInput, input ?? {});
  await pass(gates.resetRequests, email, origin.ipAddress, 'password reset requests');
  services.mailer?.deliverLater(async () => {
    const user = await services.db.user.findUnique({ where: { email: normalizeEmail(email) }, select: resetSelect });
    // A disabled account gets no link: it could not sign in with the new password anyway.
    if (!user || user.disabledAt) return [];
    await recordAudit(services.db, { action: 'password_reset_requested', actor: user, ...origin });
    return [await mailResetLink(services, user)];
  });
  return { message: RESET_REQUEST_ANSWER };
}

/** An administrator sends a person a reset link (the admin console records its own audit event). */
export async function sendPasswordReset(services: AccountServices, userId: string) {
  const user = await services.db.user.findUniqueOrThrow({ where: { id: userId }, select: resetSelect });
  const message = await mailResetLink(services, user);
  services.mailer?.deliver(message);
}

/**
 * Sets a new password through a reset link. Every session of the account ends (whoever had one
 * may be why the password was reset), and the address counts as verified: the link reached it.
 */
export async function confirmPasswordReset(
  services: AccountServices,
  gates: RecoveryGates,
  scryptCost: number,
  input: unknown,
  origin: RequestOrigin,
) {
  const { token, password } = parse(resetConfirmInput, input ?? {});
  await passLinkGate(gates, origin);
  const passwordHash = await hashPassword(password, scryptCost);
  const { user, notices } = await services.db.$transaction(async (tx) => {
    const row = await consumeAccountToken(tx, 'reset_password', token);
    const user = await tx.user.findUnique({ where: { id: row.userId }, select: { id: true, email: true } });
    if (!user || !sameEmail(user.email, row.email)) throw new InvalidLinkError();
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await retireAccountTokens(tx, user.id, 'reset_password');
    const notices = await markEmailVerified(tx, user);
    await recordAudit(tx, { action: 'password_reset', actor: user, ...origin });
    return { user, notices };
  });
  await endSessions(services, { userId: user.id });
  if (notices.length) publishNotifications(services, notices);
  return { message: 'Your new password is set. Sign in with it.', email: user.email };
}

/** The signed-in person changes their password; their other sessions end, this one stays. */
export async function changePassword(
  services: Pick<Services, 'db' | 'events'>,
  gates: RecoveryGates,
  scryptCost: number,
  viewer: Viewer,
  input: unknown,
  origin: RequestOrigin,
) {
  const { currentPassword, newPassword: chosen } = parse(changeInput, input ?? {});
  const user = await services.db.user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: { id: true, email: true, passwordHash: true },
  });
  // A wrong current password is a guess at it: counted like a failed sign-in of the account.
  await pass(gates.signIn, user.email, origin.ipAddress, 'failed attempts');
  const right = await verifyPassword(currentPassword, user.passwordHash ?? (await decoyHash(scryptCost)));
  if (!user.passwordHash) {
    throw new ValidationError(
      'Your account has no password yet: choose one with "Forgot password?" on the sign-in page.',
      'currentPassword',
    );
  }
  if (!right) throw new ValidationError('Your current password is not right.', 'currentPassword');
  await gates.signIn.succeeded(user.email, origin.ipAddress ?? undefined);
  const passwordHash = await hashPassword(chosen, scryptCost);
  await services.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    // A reset link asked for before the change must not undo it.
    await retireAccountTokens(tx, user.id, 'reset_password');
    await recordAudit(tx, { action: 'password_changed', actor: user, ...origin });
  });
  await endSessions(services, { userId: user.id, exceptSessionId: viewer.sessionId });
  return { message: 'Your password is changed. You are signed out on your other devices.' };
}
