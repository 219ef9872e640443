-- Sign-in failures are counted in leaky buckets in Redis or in memory (api/src/auth/throttle.ts)
DROP TABLE "SignInThrottle";
