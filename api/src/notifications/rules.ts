import type { NotificationType, Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../infra/db/database.ts';
import type { Events } from '../infra/events/pubsub.ts';

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

export function publishNotifications(events: Events, notifications: { id: string; userId: string }[]) {
  for (const n of notifications) events.publish('notification:added', n.userId, { notificationId: n.id });
}
