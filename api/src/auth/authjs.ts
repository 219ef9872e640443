import type { AuthConfig } from '@auth/core';
import { CredentialsSignin } from '@auth/core/errors';
import Credentials from '@auth/core/providers/credentials';
import Google from '@auth/core/providers/google';
import type { OIDCConfig } from '@auth/core/providers';
import type { Profile } from '@auth/core/types';
import type { Config } from '../config.ts';
import type { Db } from '../infra/db/database.ts';
import { authenticateWithPassword, SignInLockedError, userForIdentity, type AccountRules } from './accounts.ts';
import { endSession, startSession, viewerForSession } from './sessions.ts';
import { recordAudit } from './audit.ts';
import { currentRequestOrigin, endSessions, identityDisabled, recordFailedSignIn } from './session-control.ts';
import type { Events } from '../infra/events/pubsub.ts';
import type { SignInGate } from './throttle.ts';
import { requireSecondFactor, SecondFactorError, twoFactorKey } from './two-factor.ts';

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

/** A right password without a valid second factor: the sign-in page asks for the code (again). */
class TwoFactorSignIn extends CredentialsSignin {
  constructor(error: SecondFactorError) {
    super(error.message);
    this.code = error.reason;
  }
}

/** A disabled account, said only once the password was right (so it tells a guesser nothing). */
class DisabledSignIn extends CredentialsSignin {
  override code = 'account_disabled';
}

/** Where Auth.js sends someone whose account an administrator disabled (any provider). */
const DISABLED_PAGE = `${SIGN_IN_PAGE}?error=AccessDenied&code=account_disabled`;

/** The providers that sign people in with an outside identity; each goes through userForIdentity. */
const IDENTITY_PROVIDERS = new Set(['google', 'oidc']);

/**
 * A company's own OpenID Connect provider (Keycloak, Authentik, Entra ID, Okta…), found through
 * its discovery document; the authorization-code flow with PKCE and state, like Google's.
 */
function oidcProvider(oidc: NonNullable<Config['auth']['oidc']>): OIDCConfig<Profile> {
  return {
    id: 'oidc',
    name: oidc.name,
    type: 'oidc',
    issuer: oidc.issuer,
    wellKnown: `${oidc.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    checks: ['pkce', 'state'],
    authorization: { params: { scope: 'openid email profile' } },
  };
}

/**
 * Auth.js keeps the session in a signed, encrypted cookie that carries only a session id; the
 * session row is the truth, so signing out or deleting the row ends the session everywhere.
 */
export function authConfig(
  config: Config,
  db: Db,
  secret: string,
  rules: AccountRules,
  gate: SignInGate,
  /** Where an ended session is announced, so the live connections of its other tabs close at once. */
  events?: Events,
): AuthConfig {
  const maxAge = config.auth.sessionMaxAgeSeconds;
  const google = config.auth.google;
  const oidc = config.auth.oidc;
  const twoFactorSecretKey = twoFactorKey(secret);
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
          // A TOTP or recovery code, asked for once the password was right and two-factor is on.
          code: { label: 'Code', type: 'text' },
        },
        async authorize(credentials, request) {
          try {
            const user = await authenticateWithPassword(
              db,
              rules,
              gate,
              { email: credentials.email, password: credentials.password },
              request.headers.get(CLIENT_ADDRESS_HEADER) ?? undefined,
              (found) =>
                requireSecondFactor(db, twoFactorSecretKey, found, credentials.code, {
                  ipAddress: request.headers.get(CLIENT_ADDRESS_HEADER),
                  userAgent: request.headers.get('user-agent'),
                }),
            );
            if (!user) {
              await recordFailedSignIn(db, credentials.email);
              return null;
            }
            if (user.disabledAt) {
              await recordFailedSignIn(db, user.email, 'account_disabled');
              throw new DisabledSignIn();
            }
            return { id: user.id, email: user.email };
          } catch (error) {
            if (error instanceof SignInLockedError) throw new LockedSignIn(error);
            if (error instanceof SecondFactorError) throw new TwoFactorSignIn(error);
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
      ...(oidc ? [oidcProvider(oidc)] : []),
    ],
    callbacks: {
      async signIn({ account, profile }) {
        // A disabled person signs in through no identity provider either (the password path says so
        // in authorize). Asked before an identity is linked or an account made.
        if (
          account &&
          account.type !== 'credentials' &&
          (await identityDisabled(
            db,
            account.provider,
            account.providerAccountId,
            profile?.email_verified === true ? profile.email : null,
          ))
        ) {
          return DISABLED_PAGE;
        }
        // Only a provider-verified address may create or join an account.
        if (account && IDENTITY_PROVIDERS.has(account.provider)) return profile?.email_verified === true;
        return true;
      },
      async jwt({ token, user, account, profile, trigger }) {
        if (trigger === 'signIn' || trigger === 'signUp') {
          let userId = user?.id;
          if (account && IDENTITY_PROVIDERS.has(account.provider) && profile?.email) {
            const local = await userForIdentity(db, {
              provider: account.provider,
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
          const origin = currentRequestOrigin();
          const session = await startSession(db, userId, maxAge, origin);
          await recordAudit(db, {
            action: 'sign_in',
            actor: { id: userId, email: user?.email ?? profile?.email ?? '' },
            ...origin,
            metadata: { provider: account?.provider ?? 'credentials', sessionId: session.id },
          });
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
          const { sid, sub } = message.token;
          if (events && typeof sub === 'string') await endSessions({ db, events }, { userId: sub, sessionIds: [sid] });
          else await endSession(db, sid);
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
