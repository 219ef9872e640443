import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';
import type { AppContext, Services } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import { AUDIT_ACTIONS, type AuditActor, recordAudit } from '../auth/audit.ts';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parse } from '../shared/validation.ts';
import { instanceSettings } from './instance.ts';
import { disableAccount, sendResetLink } from './accounts.ts';

/** Where an administrator's request came from, for the audit log. */
export interface RequestMeta {
  ipAddress?: string | null;
  userAgent?: string | null;
}

/** A request of an administrator: the services, and who they are. */
export interface AdminContext extends Services {
  admin: AuditActor;
}

/**
 * The administrator behind a request. Anyone else gets a 404, as for any path that does not
 * exist, so the console is not even known to be there; signed out, the usual 401. Read on every
 * admin request, so a revoked administrator loses the console at once.
 */
export async function requireAdmin(ctx: AppContext): Promise<AdminContext> {
  if (!ctx.viewer) throw new UnauthorizedError();
  const [row] = await ctx.db.$sql<{ isAdmin: boolean; disabled: boolean }>(
    `SELECT "isAdmin", "disabledAt" IS NOT NULL AS disabled FROM "User" WHERE id = $1::uuid`,
    [ctx.viewer.id],
  );
  if (!row?.isAdmin || row.disabled) throw new NotFoundError();
  const { viewer: _viewer, ...services } = ctx;
  return { ...services, admin: { id: ctx.viewer.id, email: ctx.viewer.email } };
}

// ───────────────────────────── people ─────────────────────────────

export interface AdminUserRow {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  /** The latest use of any of their sessions (kept to the hour); null when none is left. */
  lastSeenAt: Date | null;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  isAdmin: boolean;
  disabled: boolean;
  disabledAt: Date | null;
  usedBytes: number;
  /** Their quota: their own, or the instance's STORAGE_QUOTA. */
  quotaBytes: number;
  /** The quota an administrator set for them; null: the instance's. */
  customQuotaBytes: number | null;
}

const USERS_DEFAULT_LIMIT = 50;
const USERS_MAX_LIMIT = 200;

const listInput = z.object({
  search: z
    .string()
    .trim()
    .max(200, 'search is too long.')
    .optional()
    .transform((s) => s || undefined),
  limit: z.coerce
    .number({ message: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .max(USERS_MAX_LIMIT, `limit must be at most ${USERS_MAX_LIMIT}.`)
    .default(USERS_DEFAULT_LIMIT),
  offset: z.coerce
    .number({ message: 'offset must be a number.' })
    .int('offset must be a whole number.')
    .min(0, 'offset must not be negative.')
    .default(0),
});

/** `%`, `_` and `\` match themselves in a search. */
function likePattern(search: string) {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type UserSqlRow = Omit<AdminUserRow, 'name' | 'usedBytes' | 'quotaBytes' | 'customQuotaBytes' | 'disabled'> & {
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  usedBytes: string;
  customQuotaBytes: string | null;
  total: number;
};

// Prisma keeps times as UTC without a zone; read as timestamptz they come back as the right Date.
const USER_COLUMNS = `u.id, u.email, u."displayName", u."firstName", u."lastName",
  u."createdAt" AT TIME ZONE 'UTC' AS "createdAt",
  (SELECT max(s."lastSeenAt") FROM "Session" s WHERE s."userId" = u.id) AT TIME ZONE 'UTC' AS "lastSeenAt",
  u."emailVerified" IS NOT NULL AS "emailVerified",
  u."twoFactorEnabledAt" IS NOT NULL AS "twoFactorEnabled",
  u."isAdmin", u."disabledAt" AT TIME ZONE 'UTC' AS "disabledAt",
  COALESCE(su."usedBytes", 0)::text AS "usedBytes",
  u."quotaBytes"::text AS "customQuotaBytes"`;

function userRow(config: Services['config'], row: UserSqlRow): AdminUserRow {
  const custom = row.customQuotaBytes === null ? null : Number(row.customQuotaBytes);
  return {
    id: row.id,
    email: row.email,
    name: row.displayName || [row.firstName, row.lastName].filter(Boolean).join(' ') || row.email,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    emailVerified: row.emailVerified,
    twoFactorEnabled: row.twoFactorEnabled,
    isAdmin: row.isAdmin,
    disabled: row.disabledAt !== null,
    disabledAt: row.disabledAt,
    usedBytes: Number(row.usedBytes),
    quotaBytes: custom ?? config.storage.quotaBytes,
    customQuotaBytes: custom,
  };
}

/**
 * Every account, oldest first, a page at a time; `search` matches the address or the name,
 * whatever the case. Answers the page and how many match in all.
 */
export async function listUsers(ctx: AdminContext, query: unknown): Promise<{ users: AdminUserRow[]; total: number }> {
  const { search, limit, offset } = parse(listInput, query);
  const rows = await ctx.db.$sql<UserSqlRow>(
    `SELECT ${USER_COLUMNS}, count(*) OVER ()::int AS total
     FROM "User" u LEFT JOIN "StorageUsage" su ON su."userId" = u.id
     WHERE $1::text IS NULL OR u.email ILIKE $1 OR u."displayName" ILIKE $1
        OR concat_ws(' ', u."firstName", u."lastName") ILIKE $1
     ORDER BY u."createdAt", u.id
     LIMIT $2 OFFSET $3`,
    [search === undefined ? null : likePattern(search), limit, offset],
  );
  let total = rows[0]?.total ?? 0;
  // A page past the end has no row to carry the count.
  if (rows.length === 0 && offset > 0) total = (await listUsers(ctx, { search, limit: 1 })).total;
  return { users: rows.map((row) => userRow(ctx.config, row)), total };
}

/** One account as the list shows it; 404 when there is none. */
export async function adminUser(ctx: Pick<AdminContext, 'db' | 'config'>, userId: string): Promise<AdminUserRow> {
  if (!isUuid(userId)) throw new NotFoundError('Person');
  const [row] = await ctx.db.$sql<UserSqlRow>(
    `SELECT ${USER_COLUMNS}, 1 AS total
     FROM "User" u LEFT JOIN "StorageUsage" su ON su."userId" = u.id WHERE u.id = $1::uuid`,
    [userId],
  );
  if (!row) throw new NotFoundError('Person');
  return userRow(ctx.config, row);
}

// A petabyte: far past any disk, and well inside the numbers JSON carries exactly.
const MAX_QUOTA_BYTES = 2 ** 50;

const updateInput = z.strictObject({
  disabled: z.boolean({ message: 'disabled must be true or false.' }).optional(),
  quotaBytes: z
    .number({ message: 'quotaBytes must be a number of bytes, or null for the instance default.' })
    .int('quotaBytes must be a whole number of bytes.')
    .min(0, 'quotaBytes must not be negative.')
    .max(MAX_QUOTA_BYTES, 'quotaBytes is larger than any disk.')
    .nullable()
    .optional(),
  admin: z.boolean({ message: 'admin must be true or false.' }).optional(),
});

/**
 * An administrator's changes to one account: disable or enable it, set its quota (null: the
 * instance's), make it an administrator or not. Nobody disables or demotes themselves, and the
 * last administrator stays one. Each change is written to the audit log.
 */
export async function updateUser(ctx: AdminContext, userId: string, input: unknown, meta: RequestMeta = {}) {
  const changes = parse(updateInput, input);
  const target = await adminUser(ctx, userId);
  const self = target.id === ctx.admin.id;
  if (self && changes.disabled === true) throw new ConflictError('You cannot disable your own account.');
  if (self && changes.admin === false) {
    throw new ConflictError('You cannot revoke your own administrator role. Ask another administrator.');
  }
  const subject = { id: target.id, email: target.email };
  const audit = { actor: ctx.admin, subject, ...meta };

  if (changes.quotaBytes !== undefined && changes.quotaBytes !== target.customQuotaBytes) {
    const quotaBytes = changes.quotaBytes;
    await ctx.db.$transaction(async (tx) => {
      await tx.user.update({
        where: { id: target.id },
        data: { quotaBytes: quotaBytes === null ? null : BigInt(quotaBytes) },
      });
      await recordAudit(tx, {
        action: 'admin_quota_set',
        ...audit,
        metadata: { quotaBytes, previousQuotaBytes: target.customQuotaBytes },
      });
    });
  }
  if (changes.admin !== undefined && changes.admin !== target.isAdmin) {
    await setAdministrator(ctx.db, target.id, changes.admin, audit);
  }
  if (changes.disabled !== undefined && changes.disabled !== target.disabled) {
    if (changes.disabled) await refuseLosingLastAdministrator(ctx.db, target.id);
    await disableAccount(ctx, target.id, changes.disabled);
    await recordAudit(ctx.db, { action: changes.disabled ? 'admin_user_disabled' : 'admin_user_enabled', ...audit });
  }
  return adminUser(ctx, target.id);
}

const LAST_ADMINISTRATOR = 'This is the last administrator of the instance. Make someone else an administrator first.';

/** Refuses a change that would leave the instance without an active administrator. */
async function refuseLosingLastAdministrator(db: Pick<Prisma.TransactionClient, 'user'>, userId: string) {
  const others = await db.user.count({ where: { isAdmin: true, disabledAt: null, id: { not: userId } } });
  if (others === 0) throw new ConflictError(LAST_ADMINISTRATOR);
}

/**
 * Makes a person an administrator, or not (the console, and `pnpm user:admin`). Changes of the
 * administrators take turns on a lock, so two revocations at once cannot leave none.
 */
export async function setAdministrator(
  db: Db,
  userId: string,
  admin: boolean,
  audit: { actor?: AuditActor | null; subject: AuditActor } & RequestMeta & { metadata?: Prisma.InputJsonObject },
) {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('scoutbase.administrators'))`;
    if (!admin) await refuseLosingLastAdministrator(tx, userId);
    const changed = await tx.user.updateMany({ where: { id: userId, isAdmin: !admin }, data: { isAdmin: admin } });
    if (changed.count > 0) await recordAudit(tx, { action: admin ? 'admin_granted' : 'admin_revoked', ...audit });
  });
}

/** `pnpm user:admin --email E [--revoke]`: the same rule, by address, with no administrator behind it. */
export async function setAdministratorByEmail(db: Db, email: string, admin: boolean) {
  const address = email.trim().toLowerCase();
  const user = await db.user.findUnique({
    where: { email: address },
    select: { id: true, email: true, isAdmin: true },
  });
  if (!user) throw new NotFoundError(`An account for ${address}`);
  await setAdministrator(db, user.id, admin, {
    actor: null,
    subject: { id: user.id, email: user.email },
    metadata: { via: 'command line' },
  });
  return { id: user.id, email: user.email, isAdmin: admin, changed: user.isAdmin !== admin };
}

/** Sends the person a link to choose a new password, as "Forgot password?" would. */
export async function sendPasswordResetFor(ctx: AdminContext, userId: string, meta: RequestMeta = {}) {
  const target = await adminUser(ctx, userId);
  await sendResetLink(ctx, target.id);
  await recordAudit(ctx.db, {
    action: 'admin_password_reset_sent',
    actor: ctx.admin,
    subject: { id: target.id, email: target.email },
    ...meta,
  });
  return { sent: true };
}

// ───────────────────────────── audit log ─────────────────────────────

const AUDIT_DEFAULT_LIMIT = 100;
const AUDIT_MAX_LIMIT = 1000;
/** An export takes this many events at most (newest first), read a page at a time. */
export const AUDIT_EXPORT_MAX = 100_000;

const auditInput = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .optional(),
  // The id of the last event of the previous page (or a time): older events only.
  before: z.string().trim().max(100).optional(),
  action: z
    .string()
    .optional()
    .transform((a) => a || undefined)
    .refine((a) => a === undefined || (AUDIT_ACTIONS as readonly string[]).includes(a), {
      message: 'action is not one the audit log knows.',
    }),
});

export interface AuditRow {
  id: string;
  createdAt: Date;
  action: string;
  actorId: string | null;
  actorEmail: string | null;
  subjectId: string | null;
  subjectEmail: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Prisma.JsonValue;
}

export interface AuditQuery {
  limit: number;
  before?: string;
  action?: string;
}

export function auditQuery(query: unknown, { maxLimit = AUDIT_MAX_LIMIT } = {}): AuditQuery {
  const parsed = parse(auditInput, query);
  const limit = parsed.limit ?? AUDIT_DEFAULT_LIMIT;
  if (limit > maxLimit) throw new ValidationError(`limit must be at most ${maxLimit}.`, 'limit');
  return { limit, before: parsed.before || undefined, action: parsed.action };
}

/** Audit events, newest first, older than `before`, of one kind when `action` is given. */
export async function listAudit(ctx: Pick<AdminContext, 'db'>, query: AuditQuery): Promise<AuditRow[]> {
  const where: Prisma.AuditEventWhereInput = query.action ? { action: query.action } : {};
  if (query.before) {
    if (isUuid(query.before)) {
      const last = await ctx.db.auditEvent.findUnique({ where: { id: query.before }, select: { createdAt: true } });
      if (!last) throw new ValidationError('before names no audit event.', 'before');
      where.OR = [{ createdAt: { lt: last.createdAt } }, { createdAt: last.createdAt, id: { lt: query.before } }];
    } else {
      const time = new Date(query.before);
      if (Number.isNaN(time.getTime())) {
        throw new ValidationError('before must be an audit event id or a time.', 'before');
      }
      where.createdAt = { lt: time };
    }
  }
  return ctx.db.auditEvent.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: query.limit });
}

/** Every audit event a query matches, a page at a time, for an export. */
export async function* auditPages(ctx: Pick<AdminContext, 'db'>, query: AuditQuery): AsyncGenerator<AuditRow[]> {
  let remaining = query.limit;
  let before = query.before;
  while (remaining > 0) {
    const page = await listAudit(ctx, { ...query, before, limit: Math.min(remaining, 1000) });
    if (page.length === 0) return;
    yield page;
    remaining -= page.length;
    before = page[page.length - 1]?.id;
    if (page.length < 1000) return;
  }
}

export const AUDIT_CSV_COLUMNS = [
  'createdAt',
  'action',
  'actorEmail',
  'actorId',
  'subjectEmail',
  'subjectId',
  'ipAddress',
  'userAgent',
  'metadata',
] as const;

/**
 * One CSV field (RFC 4180). A field a spreadsheet would take for a formula (=, +, -, @, tab or
 * carriage return first) gets a leading apostrophe: addresses, user agents and names in the log are
 * typed by anyone, and an export is opened by an administrator.
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function auditCsvRow(row: AuditRow): string {
  return `${AUDIT_CSV_COLUMNS.map((column) =>
    csvField(column === 'metadata' ? JSON.stringify(row.metadata ?? {}) : row[column]),
  ).join(',')}\r\n`;
}

// ───────────────────────────── the instance ─────────────────────────────

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let versionOnce: Promise<{ version: string; source: 'git' | 'package.json' | null }> | undefined;

/**
 * What is running: `git describe` of the checkout when there is one (a tag, commits since, the
 * commit), else the version in package.json, else "unknown"; never made up.
 */
export function runningVersion() {
  versionOnce ??= (async () => {
    try {
      const { stdout } = await promisify(execFile)('git', ['describe', '--tags', '--always', '--dirty'], {
        cwd: ROOT,
        timeout: 3000,
      });
      if (stdout.trim()) return { version: stdout.trim(), source: 'git' as const };
    } catch {
      // No git, or not a checkout: the package's version, if it says one.
    }
    try {
      const pkg = JSON.parse(await readFile(`${ROOT}package.json`, 'utf8')) as { version?: string };
      if (pkg.version) return { version: pkg.version, source: 'package.json' as const };
    } catch {
      // Not found: unknown.
    }
    return { version: 'unknown', source: null };
  })();
  return versionOnce;
}

export function storageBackend(config: Services['config']): 'uploadthing' | 's3' | 'local' {
  // The order createStorage picks them in (storage/service.ts).
  if (config.storage.uploadthingToken) return 'uploadthing';
  if (config.storage.s3) return 's3';
  return 'local';
}

/** The instance page: what runs, on what, how full, its queues and its settings. */
export async function instanceReport(ctx: AdminContext) {
  const [version, settings, usage, people, queues, failures] = await Promise.all([
    runningVersion(),
    instanceSettings(ctx.db, { allowSignup: ctx.config.auth.allowSignup }),
    ctx.db.storageUsage.aggregate({ _sum: { usedBytes: true } }),
    ctx.db.user.count(),
    ctx.jobs.stats(),
    ctx.jobs.failures(20),
  ]);
  return {
    version: version.version,
    versionSource: version.source,
    database: ctx.config.database.kind === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL',
    databaseKind: ctx.config.database.kind,
    storage: {
      backend: storageBackend(ctx.config),
      usedBytes: Number(usage._sum.usedBytes ?? 0),
      defaultQuotaBytes: ctx.config.storage.quotaBytes,
      maxUploadSize: ctx.config.storage.maxUploadSize,
    },
    people,
    jobs: {
      queues,
      // The job's data may name people and files: the queue, the error and when are enough here.
      failures: failures.map(({ data: _data, ...failure }) => failure),
    },
    allowSignup: settings.allowSignup,
    allowSignupDefault: ctx.config.auth.allowSignup,
    requireTwoFactor: settings.requireTwoFactor,
  };
}

const instanceInput = z.strictObject({
  // null: back to the ALLOW_SIGNUP setting.
  allowSignup: z.boolean({ message: 'allowSignup must be true or false.' }).nullable().optional(),
  requireTwoFactor: z.boolean({ message: 'requireTwoFactor must be true or false.' }).optional(),
});

export async function updateInstance(ctx: AdminContext, input: unknown, meta: RequestMeta = {}) {
  const changes = parse(instanceInput, input);
  if (Object.keys(changes).length > 0) {
    await ctx.db.$transaction(async (tx) => {
      const before = await tx.instanceSettings.findUnique({ where: { id: 1 } });
      await tx.instanceSettings.upsert({ where: { id: 1 }, create: { id: 1, ...changes }, update: changes });
      await recordAudit(tx, {
        action: 'admin_instance_settings',
        actor: ctx.admin,
        subject: null,
        ...meta,
        metadata: {
          ...changes,
          previous: { allowSignup: before?.allowSignup ?? null, requireTwoFactor: before?.requireTwoFactor ?? false },
        },
      });
    });
  }
  return instanceReport(ctx);
}

/** Runs a queue's failed jobs again. */
export async function retryJobs(ctx: AdminContext, queue: string, meta: RequestMeta = {}) {
  const known = (await ctx.jobs.stats()).some((q) => q.name === queue);
  if (!known) throw new NotFoundError('Queue');
  const retried = await ctx.jobs.retry(queue);
  await recordAudit(ctx.db, {
    action: 'admin_job_retried',
    actor: ctx.admin,
    subject: null,
    ...meta,
    metadata: { queue, retried },
  });
  return { queue, retried };
}
