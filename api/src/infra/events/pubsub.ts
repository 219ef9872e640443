import { createPubSub } from 'graphql-yoga';

/**
 * The one pub/sub for live updates. Topics are per user, so a subscriber only ever receives its
 * own events. In-process by default; a Redis event target (REDIS_URL) lets several instances share it.
 */
export type Channels = {
  /** A notification was written for this user. */
  'notification:added': [userId: string, payload: { notificationId: string }];
};

export function createEvents(options?: Parameters<typeof createPubSub<Channels>>[0]) {
  return createPubSub<Channels>(options);
}

export type Events = ReturnType<typeof createEvents>;
