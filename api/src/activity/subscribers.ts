import { type DomainEventType, type EventOf, subscribe } from '../domain-events/events.ts';
import { type ActivityInput, recordActivity } from './rules.ts';

// The activity feed's row for each event other domains record, by event type.
const rows: { [T in DomainEventType]?: (event: EventOf<T>) => ActivityInput } = {
  'gallery.created': (e) => ({
    userId: e.actorId,
    action: 'gallery_created',
    resourceType: 'gallery',
    resourceId: e.galleryId,
    resourceName: e.galleryName,
  }),
  'folder.created': (e) => ({
    userId: e.actorId,
    action: 'folder_created',
    resourceType: 'folder',
    resourceId: e.folderId,
    resourceName: e.folderName,
  }),
  'gallery.shared': (e) => ({
    userId: e.actorId,
    action: 'gallery_shared',
    resourceType: 'gallery',
    resourceId: e.galleryId,
    resourceName: e.galleryName,
    metadata: {
      sharedWith: e.memberIds.length,
      projectId: e.projectId,
      projectName: e.projectName,
      permission: e.permission,
    },
  }),
  'gallery.photos_added': (e) => ({
    userId: e.actorId,
    action: 'file_added_to_gallery',
    resourceType: 'gallery',
    resourceId: e.galleryId,
    resourceName: e.galleryName,
    metadata: { fileCount: e.files.length, fileNames: e.files.slice(0, 10).map((f) => f.name) },
  }),
  'comment.added': (e) => ({
    userId: e.actorId,
    action: 'photo_commented',
    resourceType: 'gallery',
    resourceId: e.galleryId,
    resourceName: e.galleryName,
    metadata: { fileId: e.fileId, commentId: e.commentId },
  }),
  'task.created': (e) => ({
    userId: e.actorId,
    action: 'task_created',
    resourceType: 'task',
    resourceId: e.taskId,
    resourceName: e.taskTitle,
    metadata: { priority: e.priority, ...(e.assigneeId ? { assigneeId: e.assigneeId } : {}) },
  }),
  'task.completed': (e) => ({
    userId: e.actorId,
    action: 'task_completed',
    resourceType: 'task',
    resourceId: e.taskId,
    resourceName: e.taskTitle,
  }),
};

/** Subscribes the feed to every event it has a row for. */
export function subscribeActivity() {
  for (const type of Object.keys(rows) as DomainEventType[]) {
    const row = rows[type] as (event: EventOf<DomainEventType>) => ActivityInput;
    subscribe(type, 'activity', async (tx, event) => {
      await recordActivity(tx, row(event));
      return undefined;
    });
  }
}
