import type { TestProject } from 'vitest/node';
import { buildWeb, startServer } from './server.ts';

// One production build and one real API server for the whole browser-test run.

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The server's import folder (IMPORT_DIR): tests put files there to import them. */
    importDir: string;
    /** The server's DATA_DIR/outbox: the e-mails it sent, for tests to open their links. */
    outboxDir: string;
  }
}

export default async function setup(project: TestProject) {
  buildWeb();
  // Due reminders every second, so a notification follows a due task at once; sessions of live
  // sockets looked up every second, so a tab hears an ended session while its socket is still open.
  const server = await startServer({ DUE_REMINDER_INTERVAL_SECONDS: '1', LIVE_SESSION_CHECK_SECONDS: '1' });
  project.provide('baseURL', server.baseURL);
  project.provide('importDir', server.importDir);
  project.provide('outboxDir', server.outboxDir);
  return async () => {
    if (process.env.E2E_SHOW_SERVER_LOG === '1') console.log(server.log());
    await server.stop();
  };
}
