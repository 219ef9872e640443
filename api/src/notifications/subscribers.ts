import type { Prisma } from '../generated/prisma/client.ts';
import type { Services } from '../context.ts';
import { type EventOf, subscribe } from '../domain-events/events.ts';
import { appLink } from '../shared/links.ts';
import { publishNotifications, writeNotification } from './rules.ts';

type Written = Awaited<ReturnType<typeof writeNotification>>;

/** Who is told what, for what other domains record: the rows in the change, the bell and e-mail after it. */
export function subscribeNotifications() {
  subscribe('gallery.shared', 'notifications', async (tx, event, services) => {
    const notifications: Written[] = [];
    for (const userId of event.memberIds) {
      if (userId === event.actorId) continue;
      notifications.push(
        await writeNotification(tx, {
          userId,
          type: 'team',
          title: 'Gallery shared with your project',
          message: `${event.actorName} shared "${event.galleryName}" with "${event.projectName}"${event.permission === 'write' ? ' with edit access' : ''}.`,
          link: appLink.gallery(event.galleryId),
        }),
      );
    }
    return () => publishNotifications(services, notifications);
  });
  // The owner hears about files a collaborator adds.
  subscribe('gallery.photos_added', 'notifications', async (tx, event, services) => {
    if (event.ownerId === event.actorId) return undefined;
    const what = event.files.length === 1 ? `"${event.files[0]?.name}"` : `${event.files.length} files`;
    const notice = await writeNotification(tx, {
      userId: event.ownerId,
      type: 'file',
      title: 'Files added to your gallery',
      message: `${event.actorName} added ${what} to "${event.galleryName}".`,
      link: appLink.gallery(event.galleryId),
    });
    return () => publishNotifications(services, [notice]);
  });
  subscribe('comment.added', 'notifications', async (tx, event, services) => {
    const notices: Written[] = [];
    for (const userId of event.mentionedIds) {
      notices.push(
        await writeNotification(tx, {
          userId,
          type: 'team',
          title: 'You were mentioned',
          message: `${event.actorName} mentioned you on a photo in "${event.galleryName}": ${excerpt(event.body)}`,
          link: appLink.gallery(event.galleryId),
        }),
      );
    }
    return () => publishNotifications(services, notices);
  });
  subscribe('task.created', 'notifications', (tx, event, services) =>
    event.assigneeId ? taskNotice(tx, services, event, event.assigneeId, 'New task assigned', 'assigned you') : none,
  );
  subscribe('task.assigned', 'notifications', (tx, event, services) =>
    taskNotice(tx, services, event, event.assigneeId, 'New task assigned', 'assigned you'),
  );
  // The creator hears when the person they assigned it to has done it.
  subscribe('task.completed', 'notifications', (tx, event, services) =>
    taskNotice(tx, services, event, event.creatorId, 'Task completed', 'completed'),
  );
  // The other of creator and assignee hears of it: work came back to them, or what they were told was done is not.
  subscribe('task.reopened', 'notifications', (tx, event, services) => {
    const other = event.creatorId === event.actorId ? event.assigneeId : event.creatorId;
    return other ? taskNotice(tx, services, event, other, 'Task reopened', 'reopened') : none;
  });
}

const none = Promise.resolve(undefined);

function excerpt(text: string) {
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

/** Tells `userId` what the actor did to a task (`did` reads after their name: 'assigned you'); never the actor. */
async function taskNotice(
  tx: Prisma.TransactionClient,
  services: Services,
  event: EventOf<'task.created' | 'task.assigned' | 'task.completed' | 'task.reopened'>,
  userId: string,
  title: string,
  did: string,
) {
  if (userId === event.actorId) return undefined;
  const notice = await writeNotification(tx, {
    userId,
    type: 'task',
    title,
    message: `${event.actorName} ${did} "${event.taskTitle}".`,
    link: appLink.task(event.taskId),
  });
  return () => publishNotifications(services, [notice]);
}
