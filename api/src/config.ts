import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_SCRYPT_COST } from './auth/passwords.ts';
import { parseProxyTrust, type ProxyTrust } from './http/client-address.ts';

// The only place that reads the environment. Everything else receives a Config.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const OPENSTREETMAP_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 };

/** A byte size: a plain number of bytes, or a number with KB, MB, GB or TB (binary units). */
const byteSize = (name: string) =>
  z.string().transform((value, ctx) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)?\s*$/i.exec(value);
    const bytes = match ? Math.floor(Number(match[1]) * (SIZE_UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1)) : NaN;
    if (!Number.isSafeInteger(bytes) || bytes <= 0) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a size such as 52428800, 50MB or 10GB` });
      return z.NEVER;
    }
    return bytes;
  });

/** A duration: seconds, or a number with s, m, h or d. */
const duration = (name: string) =>
  z.string().transform((value, ctx) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)?\s*$/i.exec(value);
    const factor = { s: 1, m: 60, h: 3600, d: 86400 }[(match?.[2] ?? 's').toLowerCase() as 's'];
    const seconds = match ? Number(match[1]) * factor : NaN;
    if (!Number.isFinite(seconds) || seconds <= 0) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a duration such as 900, 15m, 24h or 7d` });
      return z.NEVER;
    }
    return seconds;
  });

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
  // Any OpenID Connect provider (Keycloak, Authentik, Entra ID, Okta…): all three, or none.
  OIDC_ISSUER: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+/, 'must be the issuer URL, such as https://sso.example.com/realms/studio')
      .optional(),
  ),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  // The sign-in button's label.
  OIDC_NAME: optionalText.pipe(z.string().max(60, 'must be at most 60 characters').optional()),
  ALLOW_SIGNUP: bool.default(true),
  SESSION_MAX_AGE_DAYS: z.coerce.number().positive().max(365).default(30),
  MIGRATE_ON_START: bool.default(true),
  // The proxies in front of the server: a hop count or their addresses (src/http/client-address.ts).
  TRUST_PROXY: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
  // The web app's GraphQL operations, written by relay-compiler; production runs only these.
  PERSISTED_OPERATIONS_FILE: z.string().default(path.join(repoRoot, 'web/persisted-operations.json')),
  // How often the server looks for tasks coming due; 0 turns due reminders off.
  DUE_REMINDER_INTERVAL_SECONDS: z.coerce.number().min(0).max(86400).default(300),
  // How often live-update sockets have their session looked up (ended sessions are closed).
  LIVE_SESSION_CHECK_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\/[^/\s]+/, 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379')
      .optional(),
  ),
  // Who may read /metrics: a bearer token; without one /metrics is off in production.
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  // `false` turns the rate limits off (a private instance behind its own gateway). Off by default
  // only under NODE_ENV=test, where one address signs up hundreds of people.
  RATE_LIMITS: bool.optional(),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalText.pipe(z.url({ message: 'must be a URL' }).optional()),
  ANTHROPIC_MODEL: z.string().trim().min(1).default('claude-sonnet-4-6'),
  AI_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
  // The spec's limit is 50 MB per file; 10 GB per user unless configured.
  MAX_UPLOAD_SIZE: byteSize('MAX_UPLOAD_SIZE').default(50 * 1024 ** 2),
  STORAGE_QUOTA: byteSize('STORAGE_QUOTA').default(10 * 1024 ** 3),
  UPLOADTHING_TOKEN: optionalText,
  // An S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Garage, R2 …) for the bytes; S3_BUCKET turns it on.
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+\/?$/, 'must be an http:// or https:// URL such as http://minio.internal:9000')
      .optional(),
  ),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_PREFIX: optionalText.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*\/?$/i,
        'must be a key prefix such as scoutbase or team/library',
      )
      .optional(),
  ),
  UPLOAD_URL_TTL: duration('UPLOAD_URL_TTL').default(15 * 60),
  UPLOAD_GRACE_PERIOD: duration('UPLOAD_GRACE_PERIOD').default(24 * 3600),
  STORAGE_CLEANUP_INTERVAL: duration('STORAGE_CLEANUP_INTERVAL').default(10 * 60),
  // The server-side folder every signed-in user may import from (a shared drive, a card reader's
  // mount); `off` turns it off. Default: <DATA_DIR>/import.
  IMPORT_DIR: optionalText,
  GOOGLE_DRIVE_CLIENT_ID: optionalText,
  GOOGLE_DRIVE_CLIENT_SECRET: optionalText,
  GOOGLE_DRIVE_AUTH_URL: z.url({ message: 'must be a URL' }).default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_DRIVE_TOKEN_URL: z.url({ message: 'must be a URL' }).default('https://oauth2.googleapis.com/token'),
  GOOGLE_DRIVE_API_URL: z.url({ message: 'must be a URL' }).default('https://www.googleapis.com'),
  DROPBOX_CLIENT_ID: optionalText,
  DROPBOX_CLIENT_SECRET: optionalText,
  DROPBOX_AUTH_URL: z.url({ message: 'must be a URL' }).default('https://www.dropbox.com/oauth2/authorize'),
  DROPBOX_API_URL: z.url({ message: 'must be a URL' }).default('https://api.dropboxapi.com'),
  DROPBOX_CONTENT_URL: z.url({ message: 'must be a URL' }).default('https://content.dropboxapi.com'),
  // The gallery map's tiles: a Leaflet URL template; a tile server of your own works offline or
  // behind a firewall.
  MAP_TILE_URL: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^/\s]+\/\S*$/, 'must be an http:// or https:// URL template')
    .refine((url) => ['{z}', '{x}', '{y}'].every((part) => url.includes(part)), {
      message:
        'must be a tile URL template with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    })
    .default(DEFAULT_MAP_TILE_URL),
  MAP_TILE_ATTRIBUTION: optionalText,
  // Unset: e-mails are written as .eml files into <DATA_DIR>/outbox instead of being sent.
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(
        /^smtps?:\/\/[^/\s]+/,
        'must be an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.com:465',
      )
      .optional(),
  ),
  /** How long the digest e-mail gathers others' uploads to a person's galleries before it goes out. */
  MAIL_DIGEST_SECONDS: z.coerce.number().min(1).max(86400).default(600),
  MAIL_FROM: optionalText.pipe(
    z
      .string()
      .regex(
        /^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/,
        'must be an address such as scout@example.com or Scoutbase <scout@example.com>',
      )
      .optional(),
  ),
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
  /** The proxies whose X-Forwarded-For entries are believed; undefined: the connection's peer is the client. */
  trustProxy: ProxyTrust | undefined;
  logLevel: z.infer<typeof env>['LOG_LEVEL'];
  webDistDir: string;
  persistedOperationsFile: string;
  tasks: {
    /** Milliseconds between due-reminder passes; 0 means none run. */
    dueReminderIntervalMs: number;
  };
  /** Budgets per address and per user; counted in Redis when REDIS_URL is set. */
  rateLimits: RateLimits | undefined;
  /** Live updates go through Redis when set, so several instances share them; in-process otherwise. */
  redisUrl: string | undefined;
  /** Milliseconds between look-ups of live-update sockets' sessions (a signed-out socket is closed). */
  liveSessionCheckMs: number;
  /** The bearer token /metrics asks for; unset, /metrics is open outside production and off in it. */
  metricsToken?: string;
  ai: {
    /** Without a key the assistant runs offline (no Claude). */
    anthropicApiKey: string | undefined;
    /** Where the Messages API lives (tests point it at a local fake). */
    anthropicBaseUrl: string | undefined;
    model: string;
    timeoutMs: number;
  };
  storage: {
    /** Largest accepted file, in bytes. */
    maxUploadSize: number;
    /** Bytes each user may keep (files, versions and uploads not yet filed). */
    quotaBytes: number;
    /** Set: the bytes go to UploadThing instead of the data directory. */
    uploadthingToken: string | undefined;
    /** Set: the bytes go to this S3-compatible bucket instead of the data directory. */
    s3: S3Config | undefined;
    /** Other UploadThing hosts than its own (tests point these at a local fake). */
    uploadthingEndpoints?: { apiUrl: string; ingestUrl: string; ufsHost: string; ufsAppIdLocation: 'path' };
    /** How long an upload URL stays valid, in seconds. */
    uploadUrlTtlSeconds: number;
    /** How long bytes without a file record are kept after their URL expired, in seconds. */
    gracePeriodSeconds: number;
    /** How often the cleanup pass runs, in seconds. */
    cleanupIntervalSeconds: number;
  };
  imports: {
    /** The server-side folder users import from; undefined when turned off. */
    dir: string | undefined;
    /** Set when Google Drive's OAuth client is configured; the URLs point tests at fakes. */
    googleDrive: OAuthSourceConfig | undefined;
    dropbox: (OAuthSourceConfig & { contentUrl: string }) | undefined;
  };
  map: {
    /** Leaflet tile URL template ({s}, {z}, {x}, {y}). */
    tileUrl: string;
    /** HTML credit shown on the map, as the tile server's licence asks. */
    attribution: string;
  };
  mail: {
    /** Set: e-mails go out through this SMTP server; unset: they are written to outboxDir. */
    smtpUrl: string | undefined;
    /** The sender of every e-mail. */
    from: string;
    /** Where e-mails are written as .eml files when no SMTP server is configured. */
    outboxDir: string;
    /** The digest's window (notifications/digest.ts): read once at start. */
    digestSeconds: number;
  };
  auth: {
    /** Undefined in development: the app makes one and keeps it in the data directory. */
    secret: string | undefined;
    google: { clientId: string; clientSecret: string; issuer: string } | undefined;
    /** An OpenID Connect provider of the company's own; `name` labels its sign-in button. */
    oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | undefined;
    allowSignup: boolean;
    sessionMaxAgeSeconds: number;
    /** scrypt's N for new password hashes. */
    scryptCost: number;
    /** Failed password sign-ins each account and each address may have before waiting. */
    signInThrottle: SignInThrottle;
  };
}

export interface S3Config {
  bucket: string;
  /** Unset: AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the SDK's own chain (instance role, AWS_* environment, ~/.aws). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  prefix: string | undefined;
}

/** A count that drains by itself: at most `burst`, one less every `refillSeconds`. */
export interface LeakyBucket {
  burst: number;
  refillSeconds: number;
}

/** Buckets of failed sign-ins; an attempt is refused while any bucket it would go into is full. */
export interface SignInThrottle {
  /** Per e-mail address tried, from anywhere: a few quick typos, and a slow ceiling on guessing. */
  perAccount: LeakyBucket[];
  /** Per client address, over every account: many people share one address (an office's NAT). */
  perAddress: LeakyBucket[];
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottle = {
  perAccount: [
    { burst: 5, refillSeconds: 30 },
    { burst: 20, refillSeconds: 600 },
  ],
  perAddress: [{ burst: 100, refillSeconds: 60 }],
};

export interface Budget {
  limit: number;
  windowSeconds: number;
}

export interface RateLimits {
  signUp: { perAddress: Budget };
  /** POST /api/objects/upload. */
  uploadUrls: { perAddress: Budget; perUser: Budget };
  /** /api/ai/*. */
  ai: { perAddress: Budget; perUser: Budget };
  /** The public review paths, /api/review/* (a reviewer's page loads every thumbnail through them). */
  review: { perAddress: Budget };
  /** Their comments, picks and unlocks: a person types them, a script floods them. */
  reviewWrites: { perAddress: Budget };
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  signUp: { perAddress: { limit: 10, windowSeconds: 3600 } },
  // A shoot's card can hold hundreds of photos, each needing its own upload URL.
  uploadUrls: { perAddress: { limit: 3000, windowSeconds: 600 }, perUser: { limit: 1500, windowSeconds: 600 } },
  ai: { perAddress: { limit: 60, windowSeconds: 60 }, perUser: { limit: 20, windowSeconds: 60 } },
  review: { perAddress: { limit: 3000, windowSeconds: 600 } },
  reviewWrites: { perAddress: { limit: 300, windowSeconds: 600 } },
};

export interface OAuthSourceConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  /** Base of the file API, without a trailing slash. */
  apiUrl: string;
}

export class ConfigError extends Error {}

function bothOrNeither(e: Record<string, unknown>, id: string, secret: string) {
  if (Boolean(e[id]) !== Boolean(e[secret])) {
    throw new ConfigError(`Invalid configuration:\n  ${e[id] ? secret : id}: set both ${id} and ${secret}, or neither`);
  }
}

const noSlash = (url: string) => url.replace(/\/+$/, '');

function uploadthingTokenLooksRight(token: string) {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, unknown>;
    return typeof parsed.apiKey === 'string' && typeof parsed.appId === 'string' && Array.isArray(parsed.regions);
  } catch {
    return false;
  }
}

/** Placeholders people copy from examples, and strings too repetitive to be random. */
export function looksLikeADevelopmentSecret(secret: string) {
  const lower = secret.toLowerCase();
  if (/change.?me|example|secret|development|dev.?only|password|placeholder|insecure|xxxx/.test(lower)) return true;
  return new Set(secret).size < 12;
}

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
  if (e.NODE_ENV === 'production' && e.AUTH_SECRET && looksLikeADevelopmentSecret(e.AUTH_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  AUTH_SECRET: looks like a development or example value; in production use at least 32 random characters (openssl rand -base64 32)',
    );
  }
  if (e.UPLOADTHING_TOKEN && !uploadthingTokenLooksRight(e.UPLOADTHING_TOKEN)) {
    throw new ConfigError(
      'Invalid configuration:\n  UPLOADTHING_TOKEN: must be the token from the UploadThing dashboard (base64 JSON with apiKey, appId and regions)',
    );
  }
  if (e.S3_BUCKET && e.UPLOADTHING_TOKEN) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_BUCKET: UploadThing (UPLOADTHING_TOKEN) and an S3 bucket (S3_BUCKET) are both set; the bytes live in one place, so unset one of them',
    );
  }
  bothOrNeither(e, 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY');
  if (!e.S3_BUCKET && (e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID || e.S3_PREFIX)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_BUCKET: required with the other S3_* settings (it is what turns S3 storage on)',
    );
  }
  const oidcSet = (['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const).filter((name) => e[name]);
  if ((oidcSet.length > 0 && oidcSet.length < 3) || (e.OIDC_NAME && oidcSet.length === 0)) {
    const missing = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'].filter((name) => !e[name as 'OIDC_ISSUER']);
    throw new ConfigError(
      `Invalid configuration:\n  ${missing[0]}: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together (OIDC_NAME with them), or none`,
    );
  }
  bothOrNeither(e, 'GOOGLE_DRIVE_CLIENT_ID', 'GOOGLE_DRIVE_CLIENT_SECRET');
  bothOrNeither(e, 'DROPBOX_CLIENT_ID', 'DROPBOX_CLIENT_SECRET');
  if (e.IMPORT_DIR && /[\0]/.test(e.IMPORT_DIR)) {
    throw new ConfigError('Invalid configuration:\n  IMPORT_DIR: must be a folder path, or off');
  }
  if (e.SMTP_URL && !e.MAIL_FROM) {
    throw new ConfigError(
      'Invalid configuration:\n  MAIL_FROM: required with SMTP_URL (the sender address your SMTP server accepts, such as Scoutbase <scout@example.com>)',
    );
  }
  let trustProxy: ProxyTrust | undefined;
  try {
    trustProxy = parseProxyTrust(e.TRUST_PROXY);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: ${(error as Error).message}`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicHost = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : 'localhost';
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
    trustProxy,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    persistedOperationsFile: path.resolve(e.PERSISTED_OPERATIONS_FILE),
    tasks: { dueReminderIntervalMs: Math.round(e.DUE_REMINDER_INTERVAL_SECONDS * 1000) },
    redisUrl: e.REDIS_URL,
    liveSessionCheckMs: Math.round(e.LIVE_SESSION_CHECK_SECONDS * 1000),
    metricsToken: e.METRICS_TOKEN,
    rateLimits: (e.RATE_LIMITS ?? e.NODE_ENV !== 'test') ? structuredClone(DEFAULT_RATE_LIMITS) : undefined,
    ai: {
      anthropicApiKey: e.ANTHROPIC_API_KEY,
      anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
      model: e.ANTHROPIC_MODEL,
      timeoutMs: Math.round(e.AI_TIMEOUT_SECONDS * 1000),
    },
    storage: {
      maxUploadSize: e.MAX_UPLOAD_SIZE,
      quotaBytes: e.STORAGE_QUOTA,
      uploadthingToken: e.UPLOADTHING_TOKEN,
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : undefined,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            prefix: e.S3_PREFIX?.replace(/\/+$/, ''),
          }
        : undefined,
      uploadUrlTtlSeconds: e.UPLOAD_URL_TTL,
      gracePeriodSeconds: e.UPLOAD_GRACE_PERIOD,
      cleanupIntervalSeconds: e.STORAGE_CLEANUP_INTERVAL,
    },
    imports: {
      dir:
        e.IMPORT_DIR?.toLowerCase() === 'off' ? undefined : path.resolve(e.IMPORT_DIR ?? path.join(dataDir, 'import')),
      googleDrive:
        e.GOOGLE_DRIVE_CLIENT_ID && e.GOOGLE_DRIVE_CLIENT_SECRET
          ? {
              clientId: e.GOOGLE_DRIVE_CLIENT_ID,
              clientSecret: e.GOOGLE_DRIVE_CLIENT_SECRET,
              authUrl: e.GOOGLE_DRIVE_AUTH_URL,
              tokenUrl: e.GOOGLE_DRIVE_TOKEN_URL,
              apiUrl: noSlash(e.GOOGLE_DRIVE_API_URL),
            }
          : undefined,
      dropbox:
        e.DROPBOX_CLIENT_ID && e.DROPBOX_CLIENT_SECRET
          ? {
              clientId: e.DROPBOX_CLIENT_ID,
              clientSecret: e.DROPBOX_CLIENT_SECRET,
              authUrl: e.DROPBOX_AUTH_URL,
              tokenUrl: `${noSlash(e.DROPBOX_API_URL)}/oauth2/token`,
              apiUrl: noSlash(e.DROPBOX_API_URL),
              contentUrl: noSlash(e.DROPBOX_CONTENT_URL),
            }
          : undefined,
    },
    map: {
      tileUrl: e.MAP_TILE_URL,
      // Tile servers of one's own almost always draw OpenStreetMap data, whose licence asks for this credit.
      attribution: e.MAP_TILE_ATTRIBUTION ?? OPENSTREETMAP_ATTRIBUTION,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Scoutbase <scoutbase@${publicHost}>`,
      outboxDir: path.join(dataDir, 'outbox'),
      digestSeconds: e.MAIL_DIGEST_SECONDS,
    },
    auth: {
      secret: e.AUTH_SECRET,
      google:
        e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET
          ? { clientId: e.AUTH_GOOGLE_ID, clientSecret: e.AUTH_GOOGLE_SECRET, issuer: e.AUTH_GOOGLE_ISSUER }
          : undefined,
      oidc:
        e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
          ? {
              // As given: the provider's discovery document must name exactly this issuer.
              issuer: e.OIDC_ISSUER,
              clientId: e.OIDC_CLIENT_ID,
              clientSecret: e.OIDC_CLIENT_SECRET,
              name: e.OIDC_NAME ?? 'Single sign-on',
            }
          : undefined,
      allowSignup: e.ALLOW_SIGNUP,
      sessionMaxAgeSeconds: Math.round(e.SESSION_MAX_AGE_DAYS * 86400),
      scryptCost: DEFAULT_SCRYPT_COST,
      signInThrottle: structuredClone(DEFAULT_SIGN_IN_THROTTLE),
    },
  };
}
