import type { Prisma } from '../generated/prisma/client.ts';

/**
 * The audit log's vocabulary: security events of an account and administrators' actions. A new
 * kind of event gets a name here, so the log's readers (admin screen, CSV export) know them all.
 */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'sign_up',
  'email_verified',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_code_used',
  'session_ended',
  'sessions_ended',
  'account_exported',
  'account_deleted',
  'admin_user_disabled',
  'admin_user_enabled',
  'admin_quota_set',
  'admin_granted',
  'admin_revoked',
  'admin_password_reset_sent',
  'admin_instance_settings',
  'admin_job_retried',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did it and from where; absent for events with no person behind them. */
export interface AuditActor {
  id: string;
  email: string;
}

export interface AuditEntry {
  action: AuditAction;
  actor?: AuditActor | null;
  /** The account the event is about, when it is not the actor's own (an administrator's action). */
  subject?: AuditActor | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  metadata?: Prisma.InputJsonObject;
}

/**
 * Writes one audit event. Pass the transaction of the change it records, so the log and the change
 * commit together; the names and addresses are copied, so the log outlives the accounts it names.
 */
export async function recordAudit(db: Pick<Prisma.TransactionClient, 'auditEvent'>, entry: AuditEntry) {
  const subject = entry.subject ?? entry.actor ?? null;
  await db.auditEvent.create({
    data: {
      action: entry.action,
      actorId: entry.actor?.id ?? null,
      actorEmail: entry.actor?.email ?? null,
      subjectId: subject?.id ?? null,
      subjectEmail: subject?.email ?? null,
      ipAddress: entry.ipAddress?.slice(0, 100) ?? null,
      userAgent: entry.userAgent?.slice(0, 500) ?? null,
      metadata: entry.metadata ?? {},
    },
  });
}
