import type { MiddlewareHandler } from 'hono';
import type { Budget, RateLimits } from '../config.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import { TooManyRequestsError } from '../shared/errors.ts';
import { addressBudgetKey } from './client-address.ts';
import type { AppEnv } from './env.ts';

const MESSAGE = 'Too many requests. Please wait a moment and try again.';

type Rule = {
  name: string;
  matches(method: string, path: string, headers: Headers): boolean;
  /** How much of the budget a request spends (one unless told). */
  cost?(path: string, url: URL): number;
  perAddress?: Budget;
  perUser?: Budget;
};

function rulesFor(limits: RateLimits, asksForUploadUrl: Rule['matches'], uploadUrlsAskedFor: Rule['cost']): Rule[] {
  return [
    {
      name: 'sign-up',
      matches: (m, p) => m === 'POST' && p === '/api/auth/signup',
      perAddress: limits.signUp.perAddress,
    },
    {
      name: 'upload-url',
      matches: asksForUploadUrl,
      cost: uploadUrlsAskedFor,
      ...limits.uploadUrls,
    },
    { name: 'ai', matches: (m, p) => m === 'POST' && p.startsWith('/api/ai/'), ...limits.ai },
    // Anyone with a link (or guessing one) reaches these without an account; writes have the
    // smaller budget of their own (the first rule that matches a request is the one it spends).
    {
      name: 'review-write',
      matches: (m, p) => m !== 'GET' && m !== 'HEAD' && p.startsWith('/api/review/'),
      ...limits.reviewWrites,
    },
    { name: 'review', matches: (_m, p) => p.startsWith('/api/review/'), ...limits.review },
  ];
}

/** Counts a request (`cost` of it) against each budget in order; the first one exhausted refuses it. */
async function spend(
  limiter: RateLimiter,
  name: string,
  rule: Pick<Rule, 'perAddress' | 'perUser'>,
  who: {
    address?: string | undefined;
    user?: string | undefined;
  },
  cost = 1,
) {
  const checks: [string, Budget][] = [];
  if (rule.perAddress && who.address) {
    checks.push([`${name}:address:${addressBudgetKey(who.address)}`, rule.perAddress]);
  }
  if (rule.perUser && who.user) checks.push([`${name}:user:${who.user}`, rule.perUser]);
  for (const [key, budget] of checks) {
    const verdict = await limiter.hit(key, budget, cost);
    if (!verdict.allowed) return verdict;
  }
  return null;
}

/**
 * The AI budget for requests that do not come through /api/ai/* (the GraphQL assistant and
 * analyzeFile mutations): the same counters, so REST and GraphQL share one budget. Throws
 * TooManyRequestsError once it is spent; does nothing when rate limits are off.
 */
export function aiBudget(limits: RateLimits | undefined, limiter: RateLimiter) {
  return async (who: { user: string; address?: string | undefined }) => {
    if (!limits) return;
    const refused = await spend(limiter, 'ai', limits.ai, who);
    if (refused) throw new TooManyRequestsError(MESSAGE, refused.retryAfterSeconds);
  };
}

/**
 * Budgets for the endpoints worth abusing: making accounts, asking for upload URLs and spending AI
 * credits (guessing passwords has its own throttle that forgives, auth/throttle.ts). Each request
 * counts against its address and, when known, its user; the first budget exhausted answers 429
 * with Retry-After.
 */
/**
 * `asksForUploadUrl` tells the requests that spend the upload-URL budget (storage's routes), and
 * `uploadUrlsAskedFor` how many URLs each asks for.
 */
export function rateLimits(
  limits: RateLimits,
  limiter: RateLimiter,
  asksForUploadUrl: (method: string, path: string, headers: Headers) => boolean,
  uploadUrlsAskedFor: (path: string, url: URL) => number,
): MiddlewareHandler<AppEnv> {
  const rules = rulesFor(limits, asksForUploadUrl, uploadUrlsAskedFor);
  return async (c, next) => {
    const rule = rules.find((r) => r.matches(c.req.method, c.req.path, c.req.raw.headers));
    if (!rule) return next();
    const user = rule.perUser ? c.get('viewer')?.id : undefined;
    const cost = rule.cost?.(c.req.path, new URL(c.req.url)) ?? 1;
    const refused = await spend(limiter, rule.name, rule, { address: c.get('clientAddress'), user }, cost);
    if (refused) {
      c.header('Retry-After', String(refused.retryAfterSeconds));
      return c.json({ message: MESSAGE }, 429);
    }
    return next();
  };
}
