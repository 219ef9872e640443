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

/**
 * A count that drains by itself (a leaky bucket): it holds at most `burst`, and one drains out
 * every `refillSeconds`, so what was counted is forgiven with time instead of all at once.
 */
export interface LeakyBucket {
  burst: number;
  refillSeconds: number;
}

export interface BucketEntry {
  key: string;
  bucket: LeakyBucket;
}

export interface RateLimiter {
  /** Counts one request (or `cost` of them) against `key` and says whether it fits the budget. */
  hit(key: string, budget: Budget, cost?: number): Promise<Verdict>;
  /**
   * Adds one to every bucket, all or none: when one of them is full nothing is added, and
   * retryAfterSeconds says when the fullest has room again. Atomic across instances.
   */
  fill(entries: BucketEntry[]): Promise<Verdict>;
  /**
   * Takes up to `amount` out of each bucket (never below empty; Infinity empties it) and returns
   * how much each held before.
   */
  drain(entries: (BucketEntry & { amount: number })[]): Promise<number[]>;
  close(): Promise<void>;
}

// A bucket is kept as one number, the time at which it will be empty (GCRA's "theoretical arrival
// time"): its level at time t is (emptyAt - t) / interval, and it never needs a timer to drain.
const intervalMs = (bucket: LeakyBucket) => Math.max(1, Math.round(bucket.refillSeconds * 1000));

function fillAt(stored: (key: string) => number | undefined, entries: BucketEntry[], t: number) {
  let waitMs = 0;
  const next = entries.map(({ key, bucket }) => {
    const interval = intervalMs(bucket);
    const emptyAt = Math.max(stored(key) ?? 0, t) + interval;
    waitMs = Math.max(waitMs, emptyAt - t - bucket.burst * interval);
    return emptyAt;
  });
  return { waitMs, next };
}

function drainAt(emptyAt: number | undefined, bucket: LeakyBucket, amount: number, t: number) {
  const interval = intervalMs(bucket);
  const level = Math.max(0, (emptyAt ?? 0) - t) / interval;
  const left = Math.max(0, level - amount);
  return { level, emptyAt: left > 0 ? t + left * interval : undefined };
}

const verdict = (waitMs: number): Verdict => ({
  allowed: waitMs <= 0,
  retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
});

/**
 * Fixed windows counted in this process: enough for one instance. Expired windows are swept as
 * they are met and every minute, so the map stays as small as the set of recent callers.
 */
export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const buckets = new Map<string, number>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
    for (const [key, emptyAt] of buckets) if (emptyAt <= t) buckets.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, budget, cost = 1) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + budget.windowSeconds * 1000 };
        windows.set(key, w);
      }
      w.count += cost;
      return { allowed: w.count <= budget.limit, retryAfterSeconds: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) };
    },
    async fill(entries) {
      const t = now();
      const { waitMs, next } = fillAt((key) => buckets.get(key), entries, t);
      if (waitMs <= 0) {
        for (const [i, { key }] of entries.entries()) buckets.set(key, next[i] as number);
      }
      return verdict(waitMs);
    },
    async drain(entries) {
      const t = now();
      return entries.map(({ key, bucket, amount }) => {
        const { level, emptyAt } = drainAt(buckets.get(key), bucket, amount, t);
        if (emptyAt === undefined) buckets.delete(key);
        else buckets.set(key, emptyAt);
        return level;
      });
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

// The same arithmetic as fillAt and drainAt, run inside Redis so that instances filling one bucket
// at the same moment cannot both take its last place. Times are Redis's own (one clock for all).
const FILL_SCRIPT = `
local time = redis.call('TIME')
local t = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local wait = 0
local next = {}
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local burst = tonumber(ARGV[2 * i])
  local emptyAt = math.max(tonumber(redis.call('GET', key) or '0'), t) + interval
  wait = math.max(wait, emptyAt - t - burst * interval)
  next[i] = emptyAt
end
if wait <= 0 then
  for i, key in ipairs(KEYS) do
    redis.call('SET', key, string.format('%.0f', next[i]), 'PX', math.max(1, math.ceil(next[i] - t)))
  end
end
return string.format('%.0f', wait)
`;

const DRAIN_SCRIPT = `
local time = redis.call('TIME')
local t = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local levels = {}
for i, key in ipairs(KEYS) do
  local interval = tonumber(ARGV[2 * i - 1])
  local amount = tonumber(ARGV[2 * i])
  local level = math.max(0, tonumber(redis.call('GET', key) or '0') - t) / interval
  local left = math.max(0, level - amount)
  if left > 0 then
    redis.call('SET', key, string.format('%.0f', t + left * interval), 'PX', math.max(1, math.ceil(left * interval)))
  else
    redis.call('DEL', key)
  end
  levels[i] = tostring(level)
end
return levels
`;

/**
 * Fixed windows counted in Redis, so every instance behind the load balancer shares one budget.
 * While Redis is away requests are let through (and the outage logged once): a limiter that
 * locked everybody out would turn a Redis outage into a full one. Buckets (sign-in throttling)
 * are counted in this process meanwhile instead: guessing passwords stays slow on each instance.
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
  // Just started: give the first connection a moment instead of letting everything through.
  async function connected() {
    if (!down && redis.status !== 'ready') {
      await Promise.race([
        new Promise((resolve) => redis.once('ready', resolve)),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
    }
  }
  const local = memoryRateLimiter();
  const bucketKey = (key: string) => `scoutbase:bucket:${key}`;
  return {
    async fill(entries) {
      await connected();
      try {
        const args = entries.flatMap(({ bucket }) => [intervalMs(bucket), bucket.burst]);
        const waitMs = await redis.eval(FILL_SCRIPT, entries.length, ...entries.map((e) => bucketKey(e.key)), ...args);
        return verdict(Number(waitMs));
      } catch {
        return local.fill(entries);
      }
    },
    async drain(entries) {
      await connected();
      try {
        const args = entries.flatMap(({ bucket, amount }) => [
          intervalMs(bucket),
          Number.isFinite(amount) ? amount : 1e15,
        ]);
        const levels = (await redis.eval(
          DRAIN_SCRIPT,
          entries.length,
          ...entries.map((e) => bucketKey(e.key)),
          ...args,
        )) as string[];
        return levels.map(Number);
      } catch {
        return local.drain(entries);
      }
    },
    async hit(key, budget, cost = 1) {
      await connected();
      const redisKey = `scoutbase:ratelimit:${key}`;
      try {
        const result = await redis
          .multi()
          .incrby(redisKey, cost)
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
      await local.close();
      redis.disconnect();
    },
  };
}
