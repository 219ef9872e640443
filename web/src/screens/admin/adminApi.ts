import { dataRequest, errorFromResponse } from '../../lib/http.ts';
import { handledAsUnauthorized } from '../../lib/unauthorized.ts';

// The console's REST paths (api/src/admin/rest.ts). Every one answers 404 to anyone who is not an
// administrator, which the screen shows as the app's 404 page.

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  lastSeenAt: string | null;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  isAdmin: boolean;
  disabled: boolean;
  usedBytes: number;
  quotaBytes: number;
  /** The quota set for this person; null: the instance's. */
  customQuotaBytes: number | null;
}

export interface AuditEvent {
  id: string;
  createdAt: string;
  action: string;
  actorEmail: string | null;
  subjectEmail: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown>;
}

export interface QueueStats {
  name: string;
  queued: number;
  active: number;
  failed: number;
  oldestQueuedSeconds: number | null;
}

export interface InstanceReport {
  version: string;
  versionSource: 'git' | 'package.json' | null;
  database: string;
  storage: { backend: 'local' | 's3' | 'uploadthing'; usedBytes: number; defaultQuotaBytes: number };
  people: number;
  jobs: {
    queues: QueueStats[];
    failures: { id: string; name: string; error: string | null; attempts: number; failedAt: string | null }[];
  };
  allowSignup: boolean;
  allowSignupDefault: boolean;
  requireTwoFactor: boolean;
}

/** A 404 from the console: the viewer is not (or no longer) an administrator. */
export class NotAdminError extends Error {}

export { failureMessage } from '../../lib/http.ts';

function notAdmin(error: unknown): never {
  if (error instanceof Error && error.message.startsWith('404:')) throw new NotAdminError();
  throw error;
}

export const PEOPLE_PAGE = 50;

export async function fetchUsers(search: string, offset: number) {
  const params = new URLSearchParams({ limit: String(PEOPLE_PAGE), offset: String(offset) });
  if (search.trim()) params.set('search', search.trim());
  const response = await fetch(`/api/admin/users?${params}`, { credentials: 'include' });
  if (!response.ok) {
    const error = await errorFromResponse(response);
    handledAsUnauthorized(error);
    notAdmin(error);
  }
  return {
    users: (await response.json()) as AdminUser[],
    total: Number(response.headers.get('x-total-count') ?? 0),
  };
}

export function updateUser(id: string, change: { disabled?: boolean; quotaBytes?: number | null; admin?: boolean }) {
  return dataRequest<AdminUser>('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, change);
}

export function sendPasswordReset(id: string) {
  return dataRequest('POST', `/api/admin/users/${encodeURIComponent(id)}/password-reset`);
}

export function auditPath(params: { action?: string; before?: string; format?: 'csv' | 'json'; limit?: number }) {
  const search = new URLSearchParams();
  if (params.action) search.set('action', params.action);
  if (params.before) search.set('before', params.before);
  if (params.limit) search.set('limit', String(params.limit));
  if (params.format) search.set('format', params.format);
  const query = search.toString();
  return `/api/admin/audit${query ? `?${query}` : ''}`;
}

export function fetchAudit(action: string, before?: string) {
  return dataRequest<AuditEvent[]>('GET', auditPath({ action, before, limit: 50 })).catch(notAdmin);
}

export function fetchInstance() {
  return dataRequest<InstanceReport>('GET', '/api/admin/instance').catch(notAdmin);
}

export function updateInstance(change: { allowSignup?: boolean | null; requireTwoFactor?: boolean }) {
  return dataRequest<InstanceReport>('PATCH', '/api/admin/instance', change);
}

export function retryQueue(queue: string) {
  return dataRequest<{ queue: string; retried: number }>('POST', `/api/admin/jobs/${encodeURIComponent(queue)}/retry`);
}
