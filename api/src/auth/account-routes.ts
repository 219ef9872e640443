import { type Context, Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, requireViewer } from '../http/helpers.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import type { AccountRules } from './accounts.ts';
import { changePassword, confirmPasswordReset, passLinkGate, recoveryGates, requestPasswordReset } from './recovery.ts';
import type { RequestOrigin } from './session-control.ts';
import type { SignInGate } from './throttle.ts';
import { resendVerification, signUp, verifyEmail } from './verification.ts';

/**
 * Sign-up, verified addresses and passwords (verification.ts, recovery.ts). Mounted by authRoutes
 * before Auth.js, which answers every other /api/auth/* path.
 */
export function accountRoutes(deps: {
  services: Services;
  rules: AccountRules;
  limiter: RateLimiter;
  /** Sign-in's own throttle: a password change's current password counts as a sign-in attempt. */
  signInGate: SignInGate;
}) {
  const { services, rules, limiter } = deps;
  const gates = recoveryGates(limiter, services.config.auth.signInThrottle, deps.signInGate);
  const origin = (c: Context<AppEnv>): RequestOrigin => ({
    ipAddress: c.get('clientAddress') ?? null,
    userAgent: c.req.header('user-agent') ?? null,
  });
  const routes = new Hono<AppEnv>();

  // The same 202 whether or not the address has an account (verification.ts); no session: the
  // person signs in once they have opened the link, or right away with the password they chose.
  routes.post('/api/auth/signup', async (c) => {
    const body = await readJson(c);
    return c.json(await signUp(services, rules, limiter, body as never, origin(c)), 202);
  });

  routes.post('/api/auth/verify-email', async (c) => {
    const body = (await readJson(c)) as { token?: unknown };
    await passLinkGate(gates, origin(c));
    return c.json(await verifyEmail(services, body?.token, origin(c)));
  });

  routes.post('/api/auth/verify-email/resend', async (c) =>
    c.json(await resendVerification(services, limiter, requireViewer(c)), 202),
  );

  routes.post('/api/auth/password-reset', async (c) =>
    c.json(await requestPasswordReset(services, gates, await readJson(c), origin(c)), 202),
  );

  routes.post('/api/auth/password-reset/confirm', async (c) =>
    c.json(await confirmPasswordReset(services, gates, rules.scryptCost, await readJson(c), origin(c))),
  );

  routes.post('/api/auth/password', async (c) => {
    const viewer = requireViewer(c);
    return c.json(await changePassword(services, gates, rules.scryptCost, viewer, await readJson(c), origin(c)));
  });

  return routes;
}
