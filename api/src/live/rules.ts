import { filter, pipe } from 'graphql-yoga';
import type { ViewerContext } from '../context.ts';
import type { Channels } from '../infra/events/pubsub.ts';

type Topic = keyof Channels;
type PayloadOf<T extends Topic> = Channels[T][1];

/**
 * The viewer's own events on a topic. Topics are keyed by user id, and the id comes from the
 * session, so no argument can reach somebody else's events.
 */
export function ownEvents<T extends Topic>(
  ctx: ViewerContext,
  topic: T,
  keep?: (payload: PayloadOf<T>) => boolean,
): AsyncIterableIterator<PayloadOf<T>> {
  // The typed overloads of subscribe() need a literal topic; the payloads are the same either way.
  const events = (ctx.events.subscribe as (topic: string, id: string) => AsyncIterableIterator<PayloadOf<T>>)(
    topic,
    ctx.viewer.id,
  );
  return keep ? pipe(events, filter(keep)) : events;
}

export function unreadCount(ctx: ViewerContext): Promise<number> {
  return ctx.db.notification.count({ where: { userId: ctx.viewer.id, isRead: false } });
}

export function uploadProgressOf(ctx: ViewerContext, uploadId: string | null) {
  return ownEvents(ctx, 'upload:progress', (p) => uploadId === null || p.uploadId === uploadId);
}
