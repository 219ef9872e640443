import { AsyncLocalStorage } from 'node:async_hooks';
import type { Services } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import type { Events, SessionsEnded } from '../infra/events/pubsub.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { recordAudit } from './audit.ts';
import type { Viewer } from './sessions.ts';

// ───────────── where a sign-in comes from ─────────────

export interface RequestOrigin {
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * The address and browser of the request Auth.js is answering. Auth.js hands its callbacks (jwt,
 * where a session starts for every provider) no request, so the HTTP layer runs each Auth.js
 * request inside this store and the callbacks read it from there.
 */
export const authRequestOrigin = new AsyncLocalStorage<RequestOrigin>();

export function currentRequestOrigin(): RequestOrigin {
  return authRequestOrigin.getStore() ?? { ipAddress: null, userAgent: null };
}

// ───────────── a person's signed-in devices ─────────────

export interface SessionSummary {
  id: string;
  /** The session of the request that asked. */
  current: boolean;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  /** Moved forward at most once an hour while the session is used (sessions.ts, TOUCH_INTERVAL_MS). */
  lastSeenAt: Date;
}

/** The viewer's sessions that still hold: the current one first, then the most recently used. */
export async function listSessions(db: Db, viewer: Viewer): Promise<SessionSummary[]> {
  const rows = await db.session.findMany({
    where: { userId: viewer.id, expiresAt: { gt: new Date() } },
    orderBy: [{ lastSeenAt: 'desc' }, { createdAt: 'desc' }],
    select: { id: true, userAgent: true, ipAddress: true, createdAt: true, lastSeenAt: true },
  });
  const sessions = rows.map(({ ipAddress, ...row }) => ({
    ...row,
    ip: ipAddress,
    current: row.id === viewer.sessionId,
  }));
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}

export interface EndSessionsInput {
  userId: string;
  /** Only these sessions (others' ids are ignored); absent: every session of the person. */
  sessionIds?: string[];
  /** Keep this one (the session of the person who asked). */
  exceptSessionId?: string;
}

/**
 * Ends sessions of one person: their rows go, so every request with their cookie or access token
 * is refused from now on, and the live sockets and streams of those sessions are closed at once on
 * every instance (the 'sessions:ended' event). Returns the ids of the sessions that ended.
 *
 * Used for signing out a device, a password change or reset, and a disabled account.
 */
export async function endSessions(services: Pick<Services, 'db' | 'events'>, input: EndSessionsInput) {
  const { db, events } = services;
  const ids = input.sessionIds?.filter(isUuid);
  if (ids && ids.length === 0) return [];
  const where = {
    userId: input.userId,
    id: { ...(ids ? { in: ids } : {}), ...(input.exceptSessionId ? { not: input.exceptSessionId } : {}) },
  };
  const ended = (await db.session.findMany({ where, select: { id: true } })).map((s) => s.id);
  await db.session.deleteMany({ where });
  // Published even when no row was left: a socket may still be open for a session that expired.
  events.publish('sessions:ended', 'instance', {
    userId: input.userId,
    ...(ids ? { sessionIds: ids } : {}),
    ...(input.exceptSessionId ? { exceptSessionId: input.exceptSessionId } : {}),
  });
  return ended;
}

/** Ends one of the viewer's own sessions; another person's session, or none, is a 404. */
export async function endOwnSession(services: Pick<Services, 'db' | 'events'>, viewer: Viewer, sessionId: string) {
  const own =
    isUuid(sessionId) &&
    (await services.db.session.findFirst({ where: { id: sessionId, userId: viewer.id }, select: { id: true } }));
  if (!own) throw new NotFoundError('Session');
  await endSessions(services, { userId: viewer.id, sessionIds: [sessionId] });
}

/** Whether a socket or stream of this viewer belongs to sessions that ended. */
export function sessionEnded(ended: SessionsEnded, viewer: Pick<Viewer, 'id' | 'sessionId'>) {
  if (ended.userId !== viewer.id) return false;
  if (ended.sessionIds && !ended.sessionIds.includes(viewer.sessionId)) return false;
  return viewer.sessionId !== ended.exceptSessionId;
}

/**
 * Calls `onEnded` for every 'sessions:ended' event, from any instance; returns the function that
 * stops listening. The periodic session check of the socket layer stays as the fallback for an
 * event lost while Redis was away.
 */
export function listenForEndedSessions(events: Events, onEnded: (ended: SessionsEnded) => void) {
  let stream: AsyncIterableIterator<SessionsEnded> | undefined;
  let stopped = false;
  // Once Redis is connected: a SUBSCRIBE sent while ioredis connects (the app is starting) fails its
  // ready check ("Connection in subscriber mode"), and that instance then hears nothing.
  void events.ready().then(async () => {
    if (stopped) return;
    stream = events.subscribe('sessions:ended', 'instance');
    for await (const ended of stream) onEnded(ended);
  });
  return () => {
    stopped = true;
    void stream?.return?.();
  };
}

// ───────────── disabled accounts ─────────────

/**
 * Disables or enables a person's account. A disabled person cannot sign in (any provider), their
 * sessions and live sockets end at once, and their data stays; enabling lets them sign in again.
 */
export async function disableUser(services: Pick<Services, 'db' | 'events'>, userId: string, disabled: boolean) {
  await services.db.user.update({ where: { id: userId }, data: { disabledAt: disabled ? new Date() : null } });
  if (disabled) await endSessions(services, { userId });
}

/**
 * Whether an outside identity leads to a disabled account: the account it is linked to, or the
 * local account of its address (which it would be linked to: pass the address only when the
 * provider verified it, so an unproven address learns nothing about the account).
 */
export async function identityDisabled(
  db: Db,
  provider: string,
  providerAccountId: string,
  email: string | null | undefined,
) {
  const linked = await db.account.findUnique({
    where: { provider_providerAccountId: { provider, providerAccountId } },
    select: { user: { select: { disabledAt: true } } },
  });
  if (linked) return linked.user.disabledAt !== null;
  if (!email) return false;
  const local = await db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { disabledAt: true },
  });
  return local?.disabledAt != null;
}

// ───────────── the audit log's sign-in events ─────────────

/**
 * A wrong password: recorded against the account when the address has one, otherwise with the
 * address tried (a guesser's list of addresses is worth seeing too).
 */
export async function recordFailedSignIn(db: Db, emailTried: unknown, reason?: 'account_disabled') {
  if (typeof emailTried !== 'string') return;
  const email = emailTried.trim().toLowerCase().slice(0, 320);
  const account = await db.user.findUnique({ where: { email }, select: { id: true, email: true } });
  const origin = currentRequestOrigin();
  await recordAudit(db, {
    action: 'sign_in_failed',
    subject: account,
    ...origin,
    metadata: { ...(account ? {} : { email }), ...(reason ? { reason } : {}) },
  });
}
