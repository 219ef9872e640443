import { filter, pipe, Repeater } from 'graphql-yoga';
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

/**
 * The viewer's events on one or more topics, opened by `opening` once they are sure to arrive
 * (through Redis: once every SUBSCRIBE is answered). A client reads again, on the opening, what it
 * read before: a change in between was not sent to it, and every change from then on is. An
 * opening made by a function is made at that moment, so what it reads cannot miss a change.
 */
export function ownEventsFromNow<T extends Topic, O>(
  ctx: ViewerContext,
  topics: readonly T[],
  opening: O | (() => Promise<O>),
): AsyncIterableIterator<PayloadOf<T> | O> {
  return new Repeater<PayloadOf<T> | O>(async (push, stop) => {
    const streams = topics.map((topic) => ownEvents(ctx, topic));
    void stop.then(() => Promise.all(streams.map((events) => events.return?.())));
    // Each stream hears its topic from subscribe() on; through Redis, once its SUBSCRIBE is answered.
    await Promise.all(topics.map((topic) => ctx.events.subscribed(`${topic}:${ctx.viewer.id}`)));
    await push(typeof opening === 'function' ? await (opening as () => Promise<O>)() : opening);
    await Promise.all(
      streams.map(async (events) => {
        for await (const event of events) await push(event);
      }),
    );
    stop();
  });
}

// The pub/sub hands one payload object to every subscriber of a topic (in-process and through
// Redis alike), so a person with 1,000 open tabs would otherwise read the same rows 1,000 times
// per event. Keyed weakly by the event, so a shared read lives exactly as long as the event is
// still being delivered; per person as well, though a topic only ever reaches one person.
const readsByEvent = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * What `read` gives for the viewer as of `event`: read once, by the first subscription that
 * resolves the event, and shared with the person's other subscriptions that name the same `what`
 * (include whatever changes the answer, such as the fields selected). Each event is a fresh
 * object, so a later event always reads again.
 */
export function oncePerEvent<T>(ctx: ViewerContext, event: object, what: string, read: () => Promise<T>): Promise<T> {
  let reads = readsByEvent.get(event);
  if (!reads) {
    reads = new Map();
    readsByEvent.set(event, reads);
  }
  const key = `${ctx.viewer.id}\0${what}`;
  let result = reads.get(key) as Promise<T> | undefined;
  if (!result) {
    result = read();
    // A failed read must not be shared: the next subscription tries again.
    result.catch(() => reads.delete(key));
    reads.set(key, result);
  }
  return result;
}

/** The viewer's unread count as of `event`, counted once for all of the person's subscriptions. */
export function unreadCountAfter(ctx: ViewerContext, event: object): Promise<number> {
  return oncePerEvent(ctx, event, 'unread', () => unreadNotificationCount(ctx));
}

export function uploadProgressOf(ctx: ViewerContext, uploadId: string | null) {
  return ownEvents(ctx, 'upload:progress', (p) => uploadId === null || p.uploadId === uploadId);
}
