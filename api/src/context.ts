import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './infra/db/database.ts';
import type { Events } from './infra/events/pubsub.ts';
import type { JobQueue } from './infra/jobs/queue.ts';
import type { Mailer } from './infra/mail/mailer.ts';
import type { Viewer } from './auth/sessions.ts';

/** The app's infrastructure, built once at start. */
export interface Services {
  config: Config;
  db: Db;
  events: Events;
  /** Durable background work (pg-boss in the app's database): runs again after a crash. */
  jobs: JobQueue;
  /** E-mail to users (notifications); absent where nothing should be sent. */
  mailer?: Mailer;
  /** For failures a domain reports and survives (an AI service outage, a Redis outage). */
  logger?: Logger;
}

/** What every domain call gets: the services, and who is asking. */
export interface AppContext extends Services {
  viewer: Viewer | null;
}

/** A domain call on behalf of a signed-in user. */
export interface ViewerContext extends Services {
  viewer: Viewer;
}

export type { Viewer };
