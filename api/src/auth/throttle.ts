import type { LeakyBucket, SignInThrottle } from '../config.ts';
import { addressBudgetKey } from '../http/client-address.ts';
import type { BucketEntry, RateLimiter } from '../infra/ratelimit.ts';

/**
 * Password sign-in throttling that forgives. Every attempt goes into its account's buckets and
 * its address's buckets before the password is checked (so attempts arriving together cannot
 * slip past), and is refused while one of them is full. The buckets drain with time, and a
 * successful sign-in takes back what that person put in from that address: their typos stop
 * counting against the colleagues who share the address. Only their own: signing in to an
 * account of one's own gives back nothing spent guessing other accounts.
 */
export interface SignInGate {
  /** Counts an attempt; 0 to go ahead, or the seconds to wait (nothing counted then). */
  enter(email: string, address: string | undefined): Promise<number>;
  /** The attempt was right: its account and address get back what this pair put in. */
  succeeded(email: string, address: string | undefined): Promise<void>;
}

/**
 * `scope` keeps the counts of another guarded step of the same kind apart from sign-in's (a
 * password-reset request: recovery.ts), with the same rules.
 */
export function signInGate(limiter: RateLimiter, rules: SignInThrottle, scope = 'sign-in'): SignInGate {
  // What one account put in from one address. It drains as fast as the fastest bucket, so it
  // never gives back more than is still counted anywhere.
  const pairBucket: LeakyBucket = {
    burst: 1e6,
    refillSeconds: Math.min(...[...rules.perAccount, ...rules.perAddress].map((b) => b.refillSeconds)),
  };
  const keys = (email: string, clientAddress: string | undefined) => {
    const account = email.slice(0, 320);
    const address = clientAddress ? addressBudgetKey(clientAddress) : 'unknown';
    const counted: BucketEntry[] = [
      ...rules.perAccount.map((bucket, i) => ({ key: `${scope}:account:${i}:${account}`, bucket })),
      ...rules.perAddress.map((bucket, i) => ({ key: `${scope}:address:${i}:${address}`, bucket })),
    ];
    return { counted, pair: { key: `${scope}:pair:${address}:${account}`, bucket: pairBucket } };
  };
  return {
    async enter(email, address) {
      const { counted, pair } = keys(email, address);
      const verdict = await limiter.fill([...counted, pair]);
      return verdict.allowed ? 0 : verdict.retryAfterSeconds;
    },
    async succeeded(email, address) {
      const { counted, pair } = keys(email, address);
      const [mine = 1] = await limiter.drain([{ ...pair, amount: Number.POSITIVE_INFINITY }]);
      await limiter.drain(counted.map((entry) => ({ ...entry, amount: mine })));
    },
  };
}
