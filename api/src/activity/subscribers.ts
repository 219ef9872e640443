import { subscribe } from '../domain-events/events.ts';
import { recordActivity } from './rules.ts';

/** The activity feed's rows for what other domains record. */
export function subscribeActivity() {
  subscribe('gallery.created', 'activity', async (tx, event) => {
    await recordActivity(tx, {
      userId: event.actorId,
      action: 'gallery_created',
      resourceType: 'gallery',
      resourceId: event.galleryId,
      resourceName: event.galleryName,
    });
    return undefined;
  });
  subscribe('folder.created', 'activity', async (tx, event) => {
    await recordActivity(tx, {
      userId: event.actorId,
      action: 'folder_created',
      resourceType: 'folder',
      resourceId: event.folderId,
      resourceName: event.folderName,
    });
    return undefined;
  });
  subscribe('gallery.shared', 'activity', async (tx, event) => {
    await recordActivity(tx, {
      userId: event.actorId,
      action: 'gallery_shared',
      resourceType: 'gallery',
      resourceId: event.galleryId,
      resourceName: event.galleryName,
      metadata: {
        sharedWith: event.memberIds.length,
        projectId: event.projectId,
        projectName: event.projectName,
        permission: event.permission,
      },
    });
    return undefined;
  });
  subscribe('task.created', 'activity', async (tx, event) => {
    await recordActivity(tx, {
      userId: event.actorId,
      action: 'task_created',
      resourceType: 'task',
      resourceId: event.taskId,
      resourceName: event.taskTitle,
      metadata: { priority: event.priority, ...(event.assigneeId ? { assigneeId: event.assigneeId } : {}) },
    });
    return undefined;
  });
  subscribe('task.completed', 'activity', async (tx, event) => {
    await recordActivity(tx, {
      userId: event.actorId,
      action: 'task_completed',
      resourceType: 'task',
      resourceId: event.taskId,
      resourceName: event.taskTitle,
    });
    return undefined;
  });
  subscribe('gallery.photos_added', 'activity', async (tx, event) => {
    await recordActivity(tx, {
      userId: event.actorId,
      action: 'file_added_to_gallery',
      resourceType: 'gallery',
      resourceId: event.galleryId,
      resourceName: event.galleryName,
      metadata: { fileCount: event.files.length, fileNames: event.files.slice(0, 10).map((f) => f.name) },
    });
    return undefined;
  });
  subscribe('comment.added', 'activity', async (tx, event) => {
    await recordActivity(tx, {
      userId: event.actorId,
      action: 'photo_commented',
      resourceType: 'gallery',
      resourceId: event.galleryId,
      resourceName: event.galleryName,
      metadata: { fileId: event.fileId, commentId: event.commentId },
    });
    return undefined;
  });
}
