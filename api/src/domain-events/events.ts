import type { Prisma } from '../generated/prisma/client.ts';
import type { Services } from '../context.ts';

// What happened, recorded by the domain it happened in. The activity feed, notifications, e-mail
// and live updates follow by subscribing, so a domain never calls them (docs/ARCHITECTURE.md,
// "Domain events"). Domains move onto this one event at a time; the lint's known-violations list
// names the ones that still call notifications or activity themselves.

/** Someone made a gallery of their own. */
export interface GalleryCreated {
  type: 'gallery.created';
  actorId: string;
  galleryId: string;
  galleryName: string;
}

/** Someone made a folder in their files. */
export interface FolderCreated {
  type: 'folder.created';
  actorId: string;
  folderId: string;
  folderName: string;
}

/** A gallery's owner shared it with a project it was not shared with before. */
export interface GalleryShared {
  type: 'gallery.shared';
  actorId: string;
  actorName: string;
  galleryId: string;
  galleryName: string;
  projectId: string;
  projectName: string;
  permission: 'read' | 'write';
  /** The project's members at that moment, the actor among them. */
  memberIds: string[];
}

/** Someone added photos or videos to a gallery they may change. */
export interface GalleryPhotosAdded {
  type: 'gallery.photos_added';
  actorId: string;
  actorName: string;
  galleryId: string;
  galleryName: string;
  ownerId: string;
  /** In the order they were added. */
  files: { id: string; name: string }[];
}

/** A member commented on a photo of a gallery, perhaps mentioning people who may read it. */
export interface CommentAdded {
  type: 'comment.added';
  actorId: string;
  actorName: string;
  galleryId: string;
  galleryName: string;
  fileId: string;
  commentId: string;
  body: string;
  /** Readers of the gallery named with an @, never the author. */
  mentionedIds: string[];
}

/** What every task event says: who did it, to which task. */
interface TaskEventBase {
  actorId: string;
  actorName: string;
  taskId: string;
  taskTitle: string;
}

/** Someone made a task, perhaps assigned to someone. */
export interface TaskCreated extends TaskEventBase {
  type: 'task.created';
  priority: string;
  assigneeId: string | null;
}

/** A task's creator gave it to someone else than before. */
export interface TaskAssigned extends TaskEventBase {
  type: 'task.assigned';
  assigneeId: string;
}

/** A pending task was marked done (once, however many people pressed Complete at the same time). */
export interface TaskCompleted extends TaskEventBase {
  type: 'task.completed';
  creatorId: string;
}

/** A completed task was put back to pending. */
export interface TaskReopened extends TaskEventBase {
  type: 'task.reopened';
  creatorId: string;
  assigneeId: string | null;
}

export type DomainEvent =
  | GalleryCreated
  | FolderCreated
  | GalleryShared
  | GalleryPhotosAdded
  | CommentAdded
  | TaskCreated
  | TaskAssigned
  | TaskCompleted
  | TaskReopened;
export type DomainEventType = DomainEvent['type'];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** Work a subscriber leaves for after the change has committed: a live update, an e-mail. */
export type AfterCommit = () => Promise<void> | void;

/**
 * Reacts to an event inside the change's transaction: what it writes stands or falls with the
 * change (a failed activity row undoes the share). It may return work for after the commit.
 */
export type Subscriber<T extends DomainEventType> = (
  tx: Prisma.TransactionClient,
  event: EventOf<T>,
  services: Services,
) => Promise<AfterCommit | undefined>;

// Keyed by type: a subscriber is only ever handed events of the type it was added for.
type AnySubscriber = (
  tx: Prisma.TransactionClient,
  event: DomainEvent,
  services: Services,
) => Promise<AfterCommit | undefined>;

/** A set of subscribers and the way to record events to them: the app's one is below; tests make their own. */
export function createEventBus() {
  const subscribers = new Map<DomainEventType, Map<string, AnySubscriber>>();
  return {
    /**
     * Adds a subscriber, under a name so that registering it again (a second app in one process, as
     * tests make) replaces rather than repeats it. Subscribers run in the order they were first added.
     */
    subscribe<T extends DomainEventType>(type: T, name: string, subscriber: Subscriber<T>) {
      const forType = subscribers.get(type) ?? new Map<string, AnySubscriber>();
      forType.set(name, subscriber as unknown as AnySubscriber);
      subscribers.set(type, forType);
    },

    /**
     * Records `event` in the transaction that made the change and runs its subscribers there. The
     * caller calls the answer once the transaction has committed: it runs what they left for then.
     */
    async record(tx: Prisma.TransactionClient, services: Services, event: DomainEvent): Promise<AfterCommit> {
      const after: AfterCommit[] = [];
      for (const subscriber of subscribers.get(event.type)?.values() ?? []) {
        const next = await subscriber(tx, event, services);
        if (next) after.push(next);
      }
      return async () => {
        for (const run of after) await run();
      };
    },
  };
}

const bus = createEventBus();
export const subscribe = bus.subscribe;
export const record = bus.record;
