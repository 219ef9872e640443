import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A budget: at most `limit` requests in each window of `windowSeconds`. */
export interface Budget {
  limit: number;
  windowSeconds: number;
}

export interface Verdict {
  allowed: boolean;
  /** Seconds until the window that refused this request ends (at least 1). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request against `key` and says whether it fits the budget. */
  hit(key: string, budget: Budget): Promise<Verdict>;
  close(): Promise<void>;
}

/**
 * Fixed windows counted in this process: enough for one instance. Expired windows are swept as
 * they are met and every minute, so the map stays as small as the set of recent callers.
 */
export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, budget) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + budget.windowSeconds * 1000 };
        windows.set(key, w);
      }
      w.count += 1;
      return { allowed: w.count <= budget.limit, retryAfterSeconds: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/**
 * Fixed windows counted in Redis, so every instance behind the load balancer shares one budget.
 * While Redis is away requests are let through (and the outage logged once): a limiter that
 * locked everybody out would turn a Redis outage into a full one.
 */
export function redisRateLimiter(redisUrl: string, logger?: Pick<Logger, 'error' | 'info'>): RateLimiter {
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (!down) logger?.error({ err: error }, 'Redis is unreachable: rate limits are not enforced until it returns');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger?.info('Redis is back: rate limits are enforced again');
    down = false;
  });
  return {
    async hit(key, budget) {
      // Just started: give the first connection a moment instead of letting everything through.
      if (!down && redis.status !== 'ready') {
        await Promise.race([
          new Promise((resolve) => redis.once('ready', resolve)),
          new Promise((resolve) => setTimeout(resolve, 1000).unref()),
        ]);
      }
      const redisKey = `scoutbase:ratelimit:${key}`;
      try {
        const result = await redis
          .multi()
          .incr(redisKey)
          .pexpire(redisKey, budget.windowSeconds * 1000, 'NX')
          .pttl(redisKey)
          .exec();
        const count = Number(result?.[0]?.[1] ?? 0);
        const ttl = Number(result?.[2]?.[1] ?? budget.windowSeconds * 1000);
        return {
          allowed: count <= budget.limit,
          retryAfterSeconds: Math.max(1, Math.ceil((ttl > 0 ? ttl : budget.windowSeconds * 1000) / 1000)),
        };
      } catch {
        return { allowed: true, retryAfterSeconds: 1 };
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
