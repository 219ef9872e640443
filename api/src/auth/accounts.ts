import { z } from 'zod';
import type { Db } from '../infra/db/database.ts';
import { makeAdminIfFirst, signUpOpen } from '../admin/instance.ts';
import { noticeWaitingInvitations } from '../projects/rules.ts';
import { ConflictError, ForbiddenError, TooManyRequestsError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import type { SignInGate } from './throttle.ts';

export interface AccountRules {
  allowSignup: boolean;
  scryptCost: number;
}

const signUpInput = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(200, 'Name is too long.'),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Enter a valid email address.' })),
  password: z.string().min(8, 'Password must be at least 8 characters.').max(1024, 'Password is too long.'),
});

export type SignUpInput = z.input<typeof signUpInput>;

export function splitName(name: string): { firstName: string; lastName: string | null } {
  const parts = name.trim().split(/\s+/);
  const firstName = parts.shift() ?? '';
  return { firstName, lastName: parts.length ? parts.join(' ') : null };
}

/**
 * Creates a local account. `bypassSignupSetting` is for administrators (pnpm user:create), and
 * `admin` makes the account an administrator (pnpm user:create --admin); the first account of an
 * instance is one anyway.
 */
export async function createLocalAccount(
  db: Db,
  rules: AccountRules,
  input: SignUpInput,
  options: { bypassSignupSetting?: boolean; admin?: boolean; verified?: boolean } = {},
) {
  // An administrator who makes an account (pnpm user:create) vouches for its address; sign-up
  // proves nothing until the person opens the link e-mailed to it (verification.ts).
  const verified = options.verified ?? options.bypassSignupSetting === true;
  if (!options.bypassSignupSetting && !(await signUpOpen(db, rules.allowSignup))) {
    throw new ForbiddenError('Sign-up is turned off. Ask an administrator for an account.');
  }
  const { name, email, password } = parse(signUpInput, input);
  const passwordHash = await hashPassword(password, rules.scryptCost);
  const { firstName, lastName } = splitName(name);
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new ConflictError('An account with this email already exists.');
  try {
    return await db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          email,
          passwordHash,
          firstName,
          lastName,
          displayName: name.trim(),
          emailVerified: verified ? new Date() : null,
          isAdmin: options.admin === true,
          settings: { create: {} },
        },
      });
      if (!user.isAdmin) user.isAdmin = await makeAdminIfFirst(tx, user.id);
      if (verified) await noticeWaitingInvitations(tx, user);
      return user;
    });
  } catch (error) {
    // Two sign-ups for one address at the same moment: the unique index decides.
    if ((error as { code?: string }).code === 'P2002') {
      throw new ConflictError('An account with this email already exists.');
    }
    throw error;
  }
}

// ───────────── sign-in with a password, slowed down after repeated failures ─────────────

export class SignInLockedError extends TooManyRequestsError {}

/**
 * Checks an e-mail and password. Returns the user, or null for wrong credentials; throws
 * SignInLockedError while the account or the address has too many recent failures (throttle.ts).
 */
export async function authenticateWithPassword(
  db: Db,
  rules: AccountRules,
  gate: SignInGate,
  credentials: { email: unknown; password: unknown },
  clientAddress: string | undefined,
  /** Runs once the password was right (two-factor.ts): throws to refuse; the attempt then stays counted. */
  secondFactor?: (user: NonNullable<Awaited<ReturnType<Db['user']['findUnique']>>>) => Promise<void>,
) {
  if (typeof credentials.email !== 'string' || typeof credentials.password !== 'string') return null;
  const email = credentials.email.trim().toLowerCase();
  const wait = await gate.enter(email, clientAddress);
  if (wait > 0) {
    throw new SignInLockedError(`Too many failed sign-in attempts. Try again in ${wait} seconds.`, wait);
  }
  const user = await db.user.findUnique({ where: { email } });
  const ok = await verifyPassword(credentials.password, user?.passwordHash ?? (await decoyHash(rules.scryptCost)));
  if (!user?.passwordHash || !ok) return null;
  await secondFactor?.(user);
  await gate.succeeded(email, clientAddress);
  return user;
}

// ───────────── sign-in through an identity provider (Google, OpenID Connect) ─────────────

export interface VerifiedIdentity {
  provider: string;
  providerAccountId: string;
  email: string;
  emailVerified: boolean;
  name?: string | null;
  givenName?: string | null;
  familyName?: string | null;
  picture?: string | null;
}

/**
 * Finds or creates the user behind an outside identity. An existing local account with the same
 * address is linked only when the provider has verified that the address belongs to the person.
 */
export async function userForIdentity(db: Db, identity: VerifiedIdentity) {
  const linked = await db.account.findUnique({
    where: {
      provider_providerAccountId: { provider: identity.provider, providerAccountId: identity.providerAccountId },
    },
    include: { user: true },
  });
  if (linked) return linked.user;
  const email = identity.email.trim().toLowerCase();
  if (!identity.emailVerified) {
    throw new ForbiddenError('Your identity provider has not verified your address.');
  }
  const fallback = splitName(identity.name ?? email.split('@')[0] ?? email);
  return db.$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email } });
    const user =
      existing ??
      (await tx.user.create({
        data: {
          email,
          emailVerified: new Date(),
          displayName: identity.name ?? null,
          firstName: identity.givenName ?? fallback.firstName,
          lastName: identity.familyName ?? fallback.lastName,
          profileImageUrl: identity.picture ?? null,
          settings: { create: {} },
        },
      }));
    if (!existing) {
      user.isAdmin = await makeAdminIfFirst(tx, user.id);
      await noticeWaitingInvitations(tx, user);
    } else if (!existing.emailVerified) {
      // The provider proved the address; the unverified account's password and sessions are
      // another matter: whoever signed up with the address may not be its owner (a pre-hijacked
      // account), so they go, and the owner sets a password of their own if they want one.
      user.emailVerified = new Date();
      user.passwordHash = null;
      await tx.user.update({ where: { id: user.id }, data: { emailVerified: user.emailVerified, passwordHash: null } });
      await tx.session.deleteMany({ where: { userId: user.id } });
      await noticeWaitingInvitations(tx, user);
    }
    await tx.account.create({
      data: {
        userId: user.id,
        type: 'oidc',
        provider: identity.provider,
        providerAccountId: identity.providerAccountId,
      },
    });
    return user;
  });
}
