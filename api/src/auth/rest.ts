import { Auth } from '@auth/core';
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { readJson, requireViewer } from '../http/helpers.ts';
import { siteOrigin } from '../http/security.ts';
import { profileOf } from '../users/rules.ts';
import type { Config } from '../config.ts';
import type { Services } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import type { AccountRules } from './accounts.ts';
import { accountRoutes } from './account-routes.ts';
import { authConfig, CLIENT_ADDRESS_HEADER, SIGN_IN_PAGE } from './authjs.ts';
import { issueAccessToken } from './sessions.ts';
import { authRequestOrigin } from './session-control.ts';
import { signInGate } from './throttle.ts';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup, twoFactorKey } from './two-factor.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';

export function authRoutes(deps: AuthDeps) {
  const gate = signInGate(deps.limiter, deps.config.auth.signInThrottle);
  const config = authConfig(deps.config, deps.db, deps.secret, deps.rules, gate, deps.services.events);
  const routes = new Hono<AppEnv>();

  // The spec's entry point for signing in: the app's sign-in page, then back to where the user was.
  routes.get('/api/login', (c) => {
    const back = c.req.query('callbackUrl') ?? '/';
    return c.redirect(`${SIGN_IN_PAGE}?callbackUrl=${encodeURIComponent(sameSitePath(back))}`, 302);
  });

  routes.get('/api/auth/user', async (c) => c.json(await profileOf(deps.db, requireViewer(c).id)));

  routes.get('/api/auth/firebase-token', async (c) =>
    c.json({ token: await issueAccessToken(deps.secret, requireViewer(c)), expiresIn: 300 }),
  );

  // Local sign-up, verified addresses and passwords; the browser signs in through the standard
  // credentials flow below.
  routes.route(
    '/',
    accountRoutes({ services: deps.services, rules: deps.rules, limiter: deps.limiter, signInGate: gate }),
  );

  // Two-factor sign-in, set up and turned off in Settings › Security (two-factor.ts).
  const twoFactorSecretKey = twoFactorKey(deps.secret);
  const originOf = (c: Context<AppEnv>) => ({
    ipAddress: c.get('clientAddress'),
    userAgent: c.req.header('user-agent'),
  });
  // The secret and the recovery codes are shown once: no cache keeps a copy.
  routes.post('/api/auth/two-factor/setup', async (c) => {
    const setup = await startTwoFactorSetup(deps.db, twoFactorSecretKey, requireViewer(c));
    c.header('Cache-Control', 'no-store');
    return c.json(setup);
  });
  routes.post('/api/auth/two-factor/enable', async (c) => {
    const viewer = requireViewer(c);
    const enabled = await enableTwoFactor(deps.db, twoFactorSecretKey, viewer, await readJson(c), originOf(c));
    c.header('Cache-Control', 'no-store');
    return c.json(enabled);
  });
  routes.post('/api/auth/two-factor/disable', async (c) => {
    const viewer = requireViewer(c);
    await disableTwoFactor(deps.db, twoFactorSecretKey, gate, viewer, await readJson(c), originOf(c));
    return c.json({ twoFactorEnabled: false });
  });

  routes.all('/api/auth/*', (c) => {
    const request = atSiteOrigin(deps.config, c.req.raw);
    request.headers.set(CLIENT_ADDRESS_HEADER, c.get('clientAddress'));
    // The session a sign-in starts records where it came from (any provider: see authRequestOrigin).
    const origin = { ipAddress: c.get('clientAddress'), userAgent: c.req.header('user-agent') ?? null };
    return authRequestOrigin.run(origin, () => Auth(request, config));
  });

  return routes;
}

export interface AuthDeps {
  /** For the account routes' e-mails and audit events (account-routes.ts). */
  services: Services;
  config: Config;
  db: Db;
  secret: string;
  rules: AccountRules;
  /** Where sign-in failures are counted (Redis when configured, so every instance sees them). */
  limiter: RateLimiter;
}

/**
 * The request as the browser sent it to the site's public origin (https:// behind TLS that ends at
 * a proxy, or PUBLIC_URL's). Auth.js takes the origin of the request's URL for its redirects and
 * an identity provider's redirect_uri, and makes its cookies Secure, with the __Secure- and
 * __Host- names, exactly when that origin is https.
 */
function atSiteOrigin(config: Config, raw: Request) {
  const url = new URL(raw.url);
  const origin = siteOrigin(config, raw);
  if (origin === url.origin) return new Request(raw);
  return new Request(new URL(`${url.pathname}${url.search}`, origin), {
    method: raw.method,
    headers: raw.headers,
    body: raw.body,
    signal: raw.signal,
    // A body that is a stream must say it is sent while the answer may already come (fetch's rule).
    ...(raw.body ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** A path on this site, or '/': another site's address (also `//host`, `/\\host`) is never a way back. */
export function sameSitePath(back: string) {
  return /^\/(?![/\\])/.test(back) ? back : '/';
}
