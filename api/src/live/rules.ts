import { filter, pipe } from 'graphql-yoga';
import type { ViewerContext } from '../context.ts';
import type { Channels } from '../infra/events/pubsub.ts';
import { unreadNotificationCount } from '../notifications/rules.ts';

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

// The pub/sub hands one payload object to every subscriber of a topic (in-process and through
// Redis alike), so a person with 1,000 open tabs would otherwise count their unread notifications
// 1,000 times per event. Keyed weakly by the event, so a count lives exactly as long as the event
// is still being delivered; per person as well, though a topic only ever reaches one person.
const countsByEvent = new WeakMap<object, Map<string, Promise<number>>>();

/**
 * The viewer's unread count as of `event`: counted once, by the first subscription that resolves
 * the event, and shared with the person's other subscriptions. Each event is a fresh object, so a
 * later event (a new notification, a mark-read) always counts again.
 */
export function unreadCountAfter(ctx: ViewerContext, event: object): Promise<number> {
  let perViewer = countsByEvent.get(event);
  if (!perViewer) {
    perViewer = new Map();
    countsByEvent.set(event, perViewer);
  }
  let count = perViewer.get(ctx.viewer.id);
  if (!count) {
    count = unreadNotificationCount(ctx);
    // A failed count must not be shared: the next subscription tries again.
    count.catch(() => perViewer.delete(ctx.viewer.id));
    perViewer.set(ctx.viewer.id, count);
  }
  return count;
}

export function uploadProgressOf(ctx: ViewerContext, uploadId: string | null) {
  return ownEvents(ctx, 'upload:progress', (p) => uploadId === null || p.uploadId === uploadId);
}
