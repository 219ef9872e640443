import type { MiddlewareHandler } from 'hono';
import type { Budget, RateLimits } from '../config.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import type { AppEnv } from './env.ts';

const MESSAGE = 'Too many requests. Please wait a moment and try again.';

type Rule = {
  name: string;
  matches(method: string, path: string): boolean;
  perAddress?: Budget;
  perUser?: Budget;
  /** Who the request is about when nobody is signed in yet (the e-mail address tried). */
  subject?: (request: Request) => Promise<string | undefined>;
};

async function emailTried(request: Request): Promise<string | undefined> {
  try {
    const type = request.headers.get('content-type') ?? '';
    if (type.includes('application/json')) {
      const body = (await request.clone().json()) as { email?: unknown };
      return typeof body?.email === 'string' ? body.email.trim().toLowerCase().slice(0, 320) : undefined;
    }
    const form = await request.clone().formData();
    const email = form.get('email');
    return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : undefined;
  } catch {
    return undefined;
  }
}

function rulesFor(limits: RateLimits): Rule[] {
  return [
    {
      name: 'sign-in',
      matches: (m, p) => m === 'POST' && p === '/api/auth/callback/credentials',
      perAddress: limits.signIn.perAddress,
      perUser: limits.signIn.perUser,
      subject: emailTried,
    },
    {
      name: 'sign-up',
      matches: (m, p) => m === 'POST' && p === '/api/auth/signup',
      perAddress: limits.signUp.perAddress,
    },
    {
      name: 'upload-url',
      matches: (m, p) => m === 'POST' && p === '/api/objects/upload',
      ...limits.uploadUrls,
    },
    { name: 'ai', matches: (m, p) => m === 'POST' && p.startsWith('/api/ai/'), ...limits.ai },
  ];
}

/**
 * Budgets for the endpoints worth abusing: guessing passwords, making accounts, asking for upload
 * URLs and spending AI credits. Each request counts against its address and, when known, its
 * user; the first budget exhausted answers 429 with Retry-After.
 */
export function rateLimits(limits: RateLimits, limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  const rules = rulesFor(limits);
  return async (c, next) => {
    const rule = rules.find((r) => r.matches(c.req.method, c.req.path));
    if (!rule) return next();
    const checks: [string, Budget][] = [];
    if (rule.perAddress) checks.push([`${rule.name}:address:${c.get('clientAddress')}`, rule.perAddress]);
    if (rule.perUser) {
      const user = c.get('viewer')?.id ?? (await rule.subject?.(c.req.raw));
      if (user) checks.push([`${rule.name}:user:${user}`, rule.perUser]);
    }
    for (const [key, budget] of checks) {
      const verdict = await limiter.hit(key, budget);
      if (!verdict.allowed) {
        c.header('Retry-After', String(verdict.retryAfterSeconds));
        return c.json({ message: MESSAGE }, 429);
      }
    }
    return next();
  };
}
