import type { NotificationType, Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../infra/db/database.ts';
import type { Events } from '../infra/events/pubsub.ts';
import type { ViewerContext } from '../context.ts';
import { NotFoundError } from '../shared/errors.ts';
import { type DeliveryServices, emailNotifications } from './email.ts';
import { isUuid } from '../shared/ids.ts';

export interface NotificationInput {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  link?: string | null;
}

/**
 * Tells a person about something that concerns them. Write it inside the action's transaction
 * with `db`, then call `publish` with the result after the transaction commits, so a live
 * subscriber never hears of a notification that was rolled back.
 */
export async function writeNotification(db: Db | Prisma.TransactionClient, input: NotificationInput) {
  return db.notification.create({
    data: {
      userId: input.userId,
      type: input.type,
      title: input.title,
      message: input.message,
      link: input.link ?? null,
    },
  });
}

const UPLOAD_NOTICE_TITLE = 'Upload complete';
const UPLOAD_NOTICE_WINDOW_MS = 10 * 60 * 1000;

/**
 * Tells the uploader their upload finished. A batch of uploads should not bury the bell under one
 * notice per file: an unread notice from the last ten minutes is updated ("3 files finished
 * uploading") instead of adding another.
 */
export async function noteUploadFinished(tx: Prisma.TransactionClient, userId: string, fileName: string) {
  // Two uploads finishing at once must not both add a notice: they take turns on the user's.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`upload-notice:${userId}`}))`;
  const recent = await tx.notification.findFirst({
    where: {
      userId,
      type: 'file',
      title: UPLOAD_NOTICE_TITLE,
      isRead: false,
      createdAt: { gte: new Date(Date.now() - UPLOAD_NOTICE_WINDOW_MS) },
    },
    orderBy: { createdAt: 'desc' },
  });
  if (recent) {
    const before = Number(/^(\d+) files /.exec(recent.message)?.[1] ?? 1);
    return tx.notification.update({
      where: { id: recent.id },
      data: { message: `${before + 1} files finished uploading.` },
    });
  }
  return tx.notification.create({
    data: {
      userId,
      type: 'file',
      title: UPLOAD_NOTICE_TITLE,
      message: `${fileName} finished uploading.`,
      link: '/files',
    },
  });
}

/** Announces notifications after their transaction committed: live to the bell, and by e-mail. */
export function publishNotifications(
  services: DeliveryServices & { events: Events },
  notifications: { id: string; userId: string }[],
) {
  for (const n of notifications) services.events.publish('notification:added', n.userId, { notificationId: n.id });
  emailNotifications(
    services,
    notifications.map((n) => n.id),
  );
}

// ───────────────────────────── reading and marking ─────────────────────────────

/** A person only ever sees their own notifications. */
export function notificationVisibleWhere(userId: string): Prisma.NotificationWhereInput {
  return { userId };
}

/** Newest first; the id breaks ties so cursors are stable. */
export const notificationOrder: Prisma.NotificationOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

const notificationSelect = {
  id: true,
  type: true,
  title: true,
  message: true,
  isRead: true,
  link: true,
  createdAt: true,
} satisfies Prisma.NotificationSelect;

export const NOTIFICATION_LIST_LIMIT = 100;

export async function listNotifications(ctx: ViewerContext, options: { limit?: number; unreadOnly?: boolean } = {}) {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), NOTIFICATION_LIST_LIMIT);
  return ctx.db.notification.findMany({
    where: { ...notificationVisibleWhere(ctx.viewer.id), ...(options.unreadOnly ? { isRead: false } : {}) },
    orderBy: notificationOrder,
    take: limit,
    select: notificationSelect,
  });
}

export async function unreadNotificationCount(ctx: ViewerContext): Promise<number> {
  return ctx.db.notification.count({ where: { ...notificationVisibleWhere(ctx.viewer.id), isRead: false } });
}

/** Marks one of the viewer's notifications read; someone else's is a 404. */
export async function markNotificationRead(ctx: ViewerContext, id: string) {
  if (!isUuid(id)) throw new NotFoundError('Notification');
  const marked = await ctx.db.notification.updateMany({
    where: { id, ...notificationVisibleWhere(ctx.viewer.id) },
    data: { isRead: true },
  });
  if (marked.count !== 1) throw new NotFoundError('Notification');
  ctx.events.publish('notification:read', ctx.viewer.id, { ids: [id] });
  return ctx.db.notification.findUniqueOrThrow({ where: { id }, select: notificationSelect });
}

/** Marks every unread notification of the viewer read; answers how many changed. */
export async function markAllNotificationsRead(ctx: ViewerContext): Promise<{ updated: number }> {
  const { count } = await ctx.db.notification.updateMany({
    where: { ...notificationVisibleWhere(ctx.viewer.id), isRead: false },
    data: { isRead: true },
  });
  ctx.events.publish('notification:read', ctx.viewer.id, { all: true });
  return { updated: count };
}
