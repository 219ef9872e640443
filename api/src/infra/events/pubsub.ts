import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The one pub/sub for live updates. Topics are per user, so a subscriber only ever receives its
 * own events. In-process by default; a Redis event target (REDIS_URL) lets several instances share it.
 */
export type Channels = {
  /** A notification was written for this user. */
  'notification:added': [userId: string, payload: { notificationId: string }];
  /** Some (ids) or all of this user's notifications were marked read. */
  'notification:read': [userId: string, payload: { ids?: string[]; all?: true }];
  /** A piece of the assistant's reply to this user, as it is written. */
  'assistant:delta': [userId: string, payload: AssistantDelta];
  /** Bytes of one of this user's uploads arrived (total is 0 while the client has not said). */
  'upload:progress': [
    userId: string,
    payload: {
      uploadId: string;
      received: number;
      total: number;
      /** Storage: uploading → processing → uploaded (or failed); then, for photos, the AI tags: analyzing → analyzed (or analysis_failed). */
      status: 'uploading' | 'processing' | 'uploaded' | 'failed' | 'analyzing' | 'analyzed' | 'analysis_failed';
    },
  ];
  /** A picture this user uploaded has its EXIF facts and thumbnails now (the processing job finished). */
  'upload:processed': [userId: string, payload: { uploadId: string }];
  /** One of this user's import jobs moved on (a file was imported or failed, or the job ended). */
  'import:progress': [userId: string, payload: ImportProgress];
  /** What this user may see changed: invitations, project membership, or the galleries shared with them. */
  'access:changed': [userId: string, payload: AccessChange];
  /** A task this user created or was given changed: created, assigned, edited, completed, reopened, deleted. */
  'tasks:changed': [userId: string, payload: { taskId: string }];
  /** Photos were added to, taken out of or reordered in a gallery this user may see. */
  'gallery:items': [userId: string, payload: { galleryId: string }];
  /** A review link was revoked (or its gallery deleted): keyed by the link, heard only by its open review pages. */
  'review:ended': [linkId: string, payload: { linkId: string }];
  /** A comment or pick arrived on a gallery this user may see (reviews/feedback.ts). */
  'gallery:feedback': [userId: string, payload: GalleryFeedback];
  /**
   * Sessions were ended (signed out elsewhere, a password reset, a disabled account): one topic for
   * the whole instance, heard once by each instance's socket layer, which closes their sockets.
   */
  'sessions:ended': [scope: 'instance', payload: SessionsEnded];
};

export interface SessionsEnded {
  userId: string;
  /** These sessions ended; absent: every session of the person ended, except `exceptSessionId`. */
  sessionIds?: string[];
  exceptSessionId?: string;
}

export interface GalleryFeedback {
  galleryId: string;
  kind: 'comment' | 'pick';
  /** The PhotoComment's or PhotoPick's id. */
  id: string;
}

export interface AccessChange {
  /**
   * invitations: their pending invitations, or the pending invitations of a project they manage;
   * membership: they joined or left a project, or its member list changed;
   * galleries: a gallery was shared with, or revoked from, a project of theirs.
   */
  kind: 'invitations' | 'membership' | 'galleries';
  projectId: string;
  galleryId: string | null;
  /** The galleries they can see may have changed: refresh gallery lists and open galleries. */
  galleriesChanged: boolean;
}

export interface ImportProgress {
  jobId: string;
  status: 'running' | 'completed' | 'failed';
  total: number;
  /** Files handled so far, imported or failed. */
  done: number;
  failed: { name: string; message: string }[];
}

export interface AssistantDelta {
  /** The conversation the reply belongs to (already its final id for a new conversation). */
  conversationId: string;
  /** Echo of the client's streamId, so a browser can tell its own request's reply apart. */
  streamId: string | null;
  /** Text to append to what has arrived so far. */
  delta: string;
  /** The last piece: the reply is complete (or failed, then `error` says so). */
  done: boolean;
  error: string | null;
}

type TopicEvent = CustomEvent<unknown>;
type PubSubTarget = Pick<EventTarget, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'>;

export interface EventsOptions {
  /** Share events through Redis with every instance on the same server. */
  redisUrl?: string;
  logger?: Pick<Logger, 'warn' | 'error' | 'info'>;
}

/**
 * Wraps the Redis event target so that an outage neither crashes the app (ioredis rejects
 * commands while the server is away; the target does not catch them) nor silences this
 * instance: while Redis cannot take a publish, the event still reaches this instance's own
 * subscribers. ioredis reconnects and re-subscribes by itself when Redis returns.
 */
function resilientRedisTarget(redisUrl: string, logger: EventsOptions['logger']) {
  const options = {
    // Keep retrying for ever, backing off to 2 s between attempts.
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
    maxRetriesPerRequest: null,
    lazyConnect: false,
  };
  // A publish while Redis is away must fail at once (we then deliver locally), not queue up.
  const publisher = new Redis(redisUrl, { ...options, enableOfflineQueue: false });
  const subscriber = new Redis(redisUrl, options);
  let down = false;
  for (const [name, client] of [
    ['publish', publisher],
    ['subscribe', subscriber],
  ] as const) {
    client.on('error', (error: Error) => {
      if (!down)
        logger?.error({ err: error, client: name }, 'Redis is unreachable: live updates stay on this instance');
      down = true;
    });
    client.on('ready', () => {
      if (down) logger?.info({ client: name }, 'Redis is back: live updates are shared again');
      down = false;
    });
  }

  const local = new EventTarget();
  // SUBSCRIBEs not yet answered by Redis, by channel: until then a publish does not reach us.
  const subscribing = new Map<string, Promise<unknown>>();
  const redisTarget = createRedisEventTarget<TopicEvent>({
    publishClient: {
      publish: (channel: string, message: string) =>
        publisher.publish(channel, message).catch((error: Error) => {
          logger?.warn({ err: error, channel }, 'could not publish through Redis; delivering on this instance only');
          local.dispatchEvent(new CustomEvent(channel, { detail: message === '' ? null : JSON.parse(message) }));
          return 0;
        }),
    } as unknown as Redis,
    subscribeClient: {
      on: (event: string, listener: (...args: unknown[]) => void) => subscriber.on(event, listener),
      subscribe: (channel: string) => {
        const answered = subscriber
          .subscribe(channel)
          .catch((error: Error) => logger?.warn({ err: error, channel }, 'subscribe failed'))
          .finally(() => {
            if (subscribing.get(channel) === answered) subscribing.delete(channel);
          });
        subscribing.set(channel, answered);
        return answered;
      },
      unsubscribe: (channel: string) =>
        subscriber
          .unsubscribe(channel)
          .catch((error: Error) => logger?.warn({ err: error, channel }, 'unsubscribe failed')),
    } as unknown as Redis,
  });

  type Listener = Parameters<typeof redisTarget.addEventListener>[1];
  const target: PubSubTarget = {
    addEventListener(type: string, listener: Listener) {
      redisTarget.addEventListener(type, listener);
      local.addEventListener(type, listener as EventListener);
    },
    removeEventListener(type: string, listener: Listener) {
      redisTarget.removeEventListener(type, listener);
      local.removeEventListener(type, listener as EventListener);
    },
    dispatchEvent(event: TopicEvent) {
      if (publisher.status === 'ready') return redisTarget.dispatchEvent(event);
      return local.dispatchEvent(new CustomEvent(event.type, { detail: event.detail }));
    },
  };

  return {
    target,
    /** Resolves once both connections are up (tests; the app starts without waiting). */
    async ready() {
      await Promise.all(
        [publisher, subscriber].map(
          (client) =>
            client.status === 'ready' ||
            new Promise<void>((resolve) => {
              client.once('ready', () => resolve());
            }),
        ),
      );
    },
    /** Resolves once a publish on `channel` reaches the listeners added so far. */
    async subscribed(channel: string) {
      await subscribing.get(channel);
    },
    /** Rejects at once while Redis is away (the publisher queues nothing offline). */
    async ping() {
      await publisher.ping();
    },
    async close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

type Topic = keyof Channels;

/** What the app publishes and subscribes through; topics are keyed by the user they belong to. */
export interface PubSub {
  publish<T extends Topic>(topic: T, id: Channels[T][0], payload: Channels[T][1]): void;
  subscribe<T extends Topic>(topic: T, id: Channels[T][0]): AsyncIterableIterator<Channels[T][1]>;
}

/**
 * One subscriber's events: a listener on the target and a queue. graphql-yoga's createPubSub gives
 * each subscriber a Repeater: publishing one notification to a person's 1,000 open tabs took 8 ms
 * with them and 3–4 ms with this (bench/live.ts). The listener is added at once, so nothing
 * published after subscribe() is missed (through Redis: once its SUBSCRIBE is answered); a
 * Repeater added it on the first next().
 */
function topicEvents<P>(target: PubSubTarget, topic: string): AsyncIterableIterator<P> {
  const queued: P[] = [];
  let waiting: ((result: IteratorResult<P>) => void) | null = null;
  let ended = false;
  const finished: IteratorReturnResult<undefined> = { done: true, value: undefined };
  const listener = (event: Event) => {
    const payload = (event as TopicEvent).detail as P;
    if (!waiting) {
      queued.push(payload);
      return;
    }
    const resolve = waiting;
    waiting = null;
    resolve({ done: false, value: payload });
  };
  const end = () => {
    if (!ended) {
      ended = true;
      target.removeEventListener(topic, listener);
      queued.length = 0;
      waiting?.(finished);
      waiting = null;
    }
    return Promise.resolve(finished);
  };
  target.addEventListener(topic, listener);
  const events: AsyncIterableIterator<P> = {
    [Symbol.asyncIterator]: () => events,
    next() {
      if (queued.length > 0) return Promise.resolve({ done: false, value: queued.shift() as P });
      if (ended) return Promise.resolve(finished);
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: end,
    throw: (error: unknown) => end().then(() => Promise.reject(error)),
  };
  return events;
}

function pubSub(target: PubSubTarget): PubSub {
  return {
    publish: (topic, id, payload) => {
      target.dispatchEvent(new CustomEvent(`${topic}:${id}`, { detail: payload }));
    },
    subscribe: (topic, id) => topicEvents(target, `${topic}:${id}`),
  };
}

export function createEvents(options: EventsOptions = {}) {
  if (!options.redisUrl) {
    return Object.assign(pubSub(new EventTarget() as PubSubTarget), {
      ready: async () => {},
      // In-process, a listener hears every publish from the moment it is added.
      subscribed: async (_channel: string) => {},
      ping: async () => {},
      close: async () => {},
    });
  }
  const redis = resilientRedisTarget(options.redisUrl, options.logger);
  return Object.assign(pubSub(redis.target), {
    ready: redis.ready,
    subscribed: redis.subscribed,
    ping: redis.ping,
    close: redis.close,
  });
}

export type Events = ReturnType<typeof createEvents>;
