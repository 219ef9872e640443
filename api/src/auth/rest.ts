import { Auth } from '@auth/core';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { readJson, requireViewer } from '../http/helpers.ts';
import { profileOf } from '../users/rules.ts';
import type { Config } from '../config.ts';
import type { Db } from '../infra/db/database.ts';
import { createLocalAccount, type AccountRules } from './accounts.ts';
import { authConfig, CLIENT_ADDRESS_HEADER, SIGN_IN_PAGE } from './authjs.ts';
import { issueAccessToken } from './sessions.ts';
import { signInGate } from './throttle.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';

export function authRoutes(deps: AuthDeps) {
  const gate = signInGate(deps.limiter, deps.config.auth.signInThrottle);
  const config = authConfig(deps.config, deps.db, deps.secret, deps.rules, gate);
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

  // Local sign-up; the browser then signs in through the standard credentials flow below.
  routes.post('/api/auth/signup', async (c) => {
    const body = await readJson(c);
    const user = await createLocalAccount(deps.db, deps.rules, body as never);
    return c.json({ id: user.id, email: user.email }, 201);
  });

  routes.all('/api/auth/*', (c) => {
    const request = new Request(c.req.raw);
    request.headers.set(CLIENT_ADDRESS_HEADER, c.get('clientAddress'));
    return Auth(request, config);
  });

  return routes;
}

export interface AuthDeps {
  config: Config;
  db: Db;
  secret: string;
  rules: AccountRules;
  /** Where sign-in failures are counted (Redis when configured, so every instance sees them). */
  limiter: RateLimiter;
}

/** A path on this site, or '/': another site's address (also `//host`, `/\\host`) is never a way back. */
export function sameSitePath(back: string) {
  return /^\/(?![/\\])/.test(back) ? back : '/';
}
