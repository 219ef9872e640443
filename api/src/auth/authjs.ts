import type { AuthConfig } from '@auth/core';
import { CredentialsSignin } from '@auth/core/errors';
import Credentials from '@auth/core/providers/credentials';
import Google from '@auth/core/providers/google';
import type { Config } from '../config.ts';
import type { Db } from '../infra/db/database.ts';
import { authenticateWithPassword, SignInLockedError, userForIdentity, type AccountRules } from './accounts.ts';
import { endSession, startSession, viewerForSession } from './sessions.ts';
import type { SignInGate } from './throttle.ts';

/** Set by the HTTP layer on every request it hands to Auth.js; a client's own value is replaced. */
export const CLIENT_ADDRESS_HEADER = 'x-scoutbase-client-address';

/** The web app's own sign-in page; Auth.js sends its sign-in and error pages there. */
export const SIGN_IN_PAGE = '/signin';

/** Auth.js passes only the error's code to the sign-in page, so it carries how long the lock lasts. */
class LockedSignIn extends CredentialsSignin {
  constructor(error: SignInLockedError) {
    super(error.message);
    this.code = `too_many_attempts:${error.retryAfterSeconds}`;
  }
}

/**
 * Auth.js keeps the session in a signed, encrypted cookie that carries only a session id; the
 * session row is the truth, so signing out or deleting the row ends the session everywhere.
 */
export function authConfig(config: Config, db: Db, secret: string, rules: AccountRules, gate: SignInGate): AuthConfig {
  const maxAge = config.auth.sessionMaxAgeSeconds;
  const google = config.auth.google;
  return {
    basePath: '/api/auth',
    secret,
    trustHost: true,
    session: { strategy: 'jwt', maxAge },
    pages: { signIn: SIGN_IN_PAGE, error: SIGN_IN_PAGE },
    providers: [
      Credentials({
        id: 'credentials',
        name: 'Email and password',
        credentials: {
          email: { label: 'Email', type: 'email' },
          password: { label: 'Password', type: 'password' },
        },
        async authorize(credentials, request) {
          try {
            const user = await authenticateWithPassword(
              db,
              rules,
              gate,
              { email: credentials.email, password: credentials.password },
              request.headers.get(CLIENT_ADDRESS_HEADER) ?? undefined,
            );
            return user ? { id: user.id, email: user.email } : null;
          } catch (error) {
            if (error instanceof SignInLockedError) throw new LockedSignIn(error);
            throw error;
          }
        },
      }),
      ...(google
        ? [
            Google({
              clientId: google.clientId,
              clientSecret: google.clientSecret,
              issuer: google.issuer,
              authorization: { params: { scope: 'openid email profile' } },
            }),
          ]
        : []),
    ],
    callbacks: {
      signIn({ account, profile }) {
        // Only a provider-verified address may create or join an account.
        if (account?.provider === 'google') return profile?.email_verified === true;
        return true;
      },
      async jwt({ token, user, account, profile, trigger }) {
        if (trigger === 'signIn' || trigger === 'signUp') {
          let userId = user?.id;
          if (account?.provider === 'google' && profile?.email) {
            const local = await userForIdentity(db, {
              provider: 'google',
              providerAccountId: account.providerAccountId,
              email: profile.email,
              emailVerified: profile.email_verified === true,
              name: profile.name ?? null,
              givenName: (profile.given_name as string | undefined) ?? null,
              familyName: (profile.family_name as string | undefined) ?? null,
              picture: (profile.picture as string | undefined) ?? null,
            });
            userId = local.id;
          }
          if (!userId) return null;
          const session = await startSession(db, userId, maxAge, {});
          // Keep the cookie small and free of personal data: the id of the session row only.
          return { sub: userId, sid: session.id };
        }
        if (typeof token.sid !== 'string' || !(await viewerForSession(db, token.sid, maxAge))) return null;
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub ?? '' } };
      },
    },
    events: {
      async signOut(message) {
        if ('token' in message && typeof message.token?.sid === 'string') {
          await endSession(db, message.token.sid);
        }
      },
    },
    logger: {
      error: () => {},
      warn: () => {},
      debug: () => {},
    },
  };
}
