import type { Config } from './config.ts';
import type { Db } from './infra/db/database.ts';
import type { Viewer } from './auth/sessions.ts';

/** What every domain call gets: who is asking, and the app's infrastructure. */
export interface AppContext {
  config: Config;
  db: Db;
  viewer: Viewer | null;
}

export type { Viewer };
