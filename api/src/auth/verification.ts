import type { Services } from '../context.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import { appBaseUrl } from '../notifications/email.ts';
import { publishNotifications } from '../notifications/rules.ts';
import { noticeWaitingInvitations } from '../projects/rules.ts';
import { sameEmail } from '../shared/email.ts';
import { ConflictError, TooManyRequestsError } from '../shared/errors.ts';
import { consumeAccountToken, InvalidLinkError, issueAccountToken, retireAccountTokens } from './account-tokens.ts';
import { type AccountRules, createLocalAccount, type SignUpInput } from './accounts.ts';
import { recordAudit } from './audit.ts';
import { addressTakenMail, verificationMail } from './mails.ts';
import type { RequestOrigin } from './session-control.ts';
import type { Viewer } from './sessions.ts';

// Verified addresses: an account proves it reads its address by opening a link e-mailed to it.
// Until then it may sign in, but not take what was sent to the address (invitations).

export const VERIFY_TTL_SECONDS = 24 * 60 * 60;

export const SIGN_UP_ANSWER = 'Check your e-mail to verify your address.';

export type AccountServices = Pick<Services, 'db' | 'config' | 'mailer' | 'logger' | 'events'>;

/** What sign-up answers: the same for a new address and a taken one (202). */
export interface SignUpAnswer {
  message: string;
  email: string;
}

/**
 * Signs someone up. A new address gets an account and a verification link; a taken address gets
 * nothing but an e-mail to its holder saying someone tried. The answer is the same for both, and
 * both cost a password hash, so neither the answer nor its time says whether an account exists.
 */
export async function signUp(
  services: AccountServices,
  rules: AccountRules,
  limiter: RateLimiter,
  input: SignUpInput,
  origin: RequestOrigin,
): Promise<SignUpAnswer> {
  try {
    const user = await createLocalAccount(services.db, rules, input);
    await recordAudit(services.db, { action: 'sign_up', actor: user, ...origin });
    sendVerification(services, user);
    return { message: SIGN_UP_ANSWER, email: user.email };
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    // createLocalAccount checked the input and hashed the password before it found the address taken.
    const email = String((input as { email?: unknown }).email ?? '')
      .trim()
      .toLowerCase();
    await tellHolderOfTakenAddress(services, limiter, email);
    return { message: SIGN_UP_ANSWER, email };
  }
}

/** At most a few "someone tried" e-mails an hour to one address, however often someone tries. */
const TAKEN_NOTICES = { burst: 3, refillSeconds: 20 * 60 };

async function tellHolderOfTakenAddress(services: AccountServices, limiter: RateLimiter, email: string) {
  const verdict = await limiter.fill([{ key: `sign-up-taken:${email.slice(0, 320)}`, bucket: TAKEN_NOTICES }]);
  if (!verdict.allowed) return;
  services.mailer?.deliverLater(async () => {
    const holder = await services.db.user.findUnique({
      where: { email },
      select: { email: true, firstName: true, displayName: true },
    });
    if (!holder) return [];
    return [addressTakenMail(holder.email, holder.firstName || holder.displayName, appBaseUrl(services.config))];
  });
}

/** E-mails a fresh verification link for the account's current address (in the background). */
export function sendVerification(
  services: AccountServices,
  user: { id: string; email: string; firstName?: string | null; displayName?: string | null },
) {
  services.mailer?.deliverLater(async () => {
    const token = await issueAccountToken(services.db, {
      userId: user.id,
      purpose: 'verify_email',
      email: user.email,
      ttlSeconds: VERIFY_TTL_SECONDS,
    });
    const url = `${appBaseUrl(services.config)}/verify-email?token=${token}`;
    return [verificationMail(user.email, user.firstName || user.displayName || null, url)];
  });
}

/**
 * Marks the account's address verified (once): from now on it may take the invitations that
 * waited for that address, and it hears about them. Returns the notices written, to publish after
 * the transaction. Used by the link, a password reset (which proved the mailbox too) and tests.
 */
export async function markEmailVerified(tx: Prisma.TransactionClient, user: { id: string; email: string }) {
  const updated = await tx.user.updateMany({
    where: { id: user.id, email: user.email, emailVerified: null },
    data: { emailVerified: new Date() },
  });
  if (updated.count !== 1) return [];
  await retireAccountTokens(tx, user.id, 'verify_email');
  return noticeWaitingInvitations(tx, user);
}

/** Opens a verification link: the address it was sent to, if still the account's, is verified. */
export async function verifyEmail(services: AccountServices, token: unknown, origin: RequestOrigin) {
  const { email, notices } = await services.db.$transaction(async (tx) => {
    const row = await consumeAccountToken(tx, 'verify_email', token);
    const user = await tx.user.findUnique({ where: { id: row.userId }, select: { id: true, email: true } });
    // Sent to an address the account no longer has: it proves nothing about the current one.
    if (!user || !sameEmail(user.email, row.email)) throw new InvalidLinkError();
    const notices = await markEmailVerified(tx, user);
    await recordAudit(tx, { action: 'email_verified', actor: user, ...origin });
    return { email: user.email, notices };
  });
  if (notices.length) publishNotifications(services, notices);
  return { message: 'Your e-mail address is verified.', email };
}

/** At most a few new links an hour for one account. */
const RESENDS = { burst: 3, refillSeconds: 10 * 60 };

/** A new verification link for the signed-in person (the old ones keep working until they expire). */
export async function resendVerification(services: AccountServices, limiter: RateLimiter, viewer: Viewer) {
  const user = await services.db.user.findUniqueOrThrow({
    where: { id: viewer.id },
    select: { id: true, email: true, emailVerified: true, firstName: true, displayName: true },
  });
  if (user.emailVerified) throw new ConflictError('Your e-mail address is already verified.');
  const verdict = await limiter.fill([{ key: `verify-resend:${user.id}`, bucket: RESENDS }]);
  if (!verdict.allowed) {
    throw new TooManyRequestsError(
      `We sent a link a moment ago. Try again in ${Math.ceil(verdict.retryAfterSeconds / 60)} minutes.`,
      verdict.retryAfterSeconds,
    );
  }
  sendVerification(services, user);
  return { message: `We sent a new link to ${user.email}.`, email: user.email };
}
