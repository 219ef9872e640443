import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_SCRYPT_COST } from './auth/passwords.ts';

// The only place that reads the environment. Everything else receives a Config.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

const env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(z.url({ message: 'must be a URL such as https://scout.example.com' }).optional()),
  AUTH_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  AUTH_GOOGLE_ID: optionalText,
  AUTH_GOOGLE_SECRET: optionalText,
  AUTH_GOOGLE_ISSUER: z.url({ message: 'must be a URL' }).default('https://accounts.google.com'),
  ALLOW_SIGNUP: bool.default(true),
  SESSION_MAX_AGE_DAYS: z.coerce.number().positive().max(365).default(30),
  MIGRATE_ON_START: bool.default(true),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
  // How often the server looks for tasks coming due; 0 turns due reminders off.
  DUE_REMINDER_INTERVAL_SECONDS: z.coerce.number().min(0).max(86400).default(300),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\/[^/\s]+/, 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379')
      .optional(),
  ),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalText.pipe(z.url({ message: 'must be a URL' }).optional()),
  ANTHROPIC_MODEL: z.string().trim().min(1).default('claude-sonnet-4-5'),
  AI_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
});

export type DatabaseConfig = { kind: 'embedded'; dataDir: string } | { kind: 'postgres'; url: string };

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string | undefined;
  database: DatabaseConfig;
  migrateOnStart: boolean;
  /** Take the client's address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
  logLevel: z.infer<typeof env>['LOG_LEVEL'];
  webDistDir: string;
  tasks: {
    /** Milliseconds between due-reminder passes; 0 means none run. */
    dueReminderIntervalMs: number;
  };
  /** Live updates go through Redis when set, so several instances share them; in-process otherwise. */
  redisUrl: string | undefined;
  ai: {
    /** Without a key the assistant runs offline (no Claude). */
    anthropicApiKey: string | undefined;
    /** Where the Messages API lives (tests point it at a local fake). */
    anthropicBaseUrl: string | undefined;
    model: string;
    timeoutMs: number;
  };
  auth: {
    /** Undefined in development: the app makes one and keeps it in the data directory. */
    secret: string | undefined;
    google: { clientId: string; clientSecret: string; issuer: string } | undefined;
    allowSignup: boolean;
    sessionMaxAgeSeconds: number;
    /** scrypt's N for new password hashes. */
    scryptCost: number;
  };
}

export class ConfigError extends Error {}

export function readConfig(source: Record<string, string | undefined>): Config {
  const parsed = env.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.AUTH_GOOGLE_ID) !== Boolean(e.AUTH_GOOGLE_SECRET)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.AUTH_GOOGLE_ID ? 'AUTH_GOOGLE_SECRET' : 'AUTH_GOOGLE_ID'}: set both AUTH_GOOGLE_ID and AUTH_GOOGLE_SECRET, or neither`,
    );
  }
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  AUTH_SECRET: required in production (at least 32 random characters)',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'embedded', dataDir: path.join(dataDir, 'db') },
    migrateOnStart: e.MIGRATE_ON_START,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    tasks: { dueReminderIntervalMs: Math.round(e.DUE_REMINDER_INTERVAL_SECONDS * 1000) },
    redisUrl: e.REDIS_URL,
    ai: {
      anthropicApiKey: e.ANTHROPIC_API_KEY,
      anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
      model: e.ANTHROPIC_MODEL,
      timeoutMs: Math.round(e.AI_TIMEOUT_SECONDS * 1000),
    },
    auth: {
      secret: e.AUTH_SECRET,
      google:
        e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET
          ? { clientId: e.AUTH_GOOGLE_ID, clientSecret: e.AUTH_GOOGLE_SECRET, issuer: e.AUTH_GOOGLE_ISSUER }
          : undefined,
      allowSignup: e.ALLOW_SIGNUP,
      sessionMaxAgeSeconds: Math.round(e.SESSION_MAX_AGE_DAYS * 86400),
      scryptCost: DEFAULT_SCRYPT_COST,
    },
  };
}
