import { serve, type HttpBindings } from '@hono/node-server';
import { createApp } from './app.ts';
import { ConfigError, readConfig } from './config.ts';
import { attachSubscriptions } from './live/websocket.ts';
import { configErrorLine, startupErrorLine } from './startup-errors.ts';
import { keepFilesPrivate } from './infra/private-files.ts';

// Before anything is written: the data folder and all in it are for the owner alone.
keepFilesPrivate();

/** Start-up failed: one line on stderr that says what to do, not a stack (LOG_LEVEL=debug adds it). */
function failToStart(error: unknown): never {
  console.error(startupErrorLine(error, config));
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '')) console.error(error);
  process.exit(1);
}

let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(configErrorLine(error.message));
    process.exit(1);
  }
  throw error;
}

let app: Awaited<ReturnType<typeof createApp>>;
let started: typeof app | undefined;
try {
  started = await createApp(config);
  // Without migrations nothing has talked to the database yet: find out now, not at the first request.
  await started.services.db.$sql('SELECT 1', []);
  app = started;
} catch (error) {
  // Another server (or a command) holds the embedded database (DataDirInUseError), a setting is
  // wrong, the database does not answer: one line each.
  await started?.close().catch(() => {});
  failToStart(error);
}
const server = serve(
  { fetch: (req, env) => app.fetch(req, env as HttpBindings), port: config.port, hostname: config.host },
  (info) => {
    app.logger.info(
      {
        url: `http://${info.address === '0.0.0.0' ? 'localhost' : info.address}:${info.port}`,
        database: config.database.kind,
      },
      'Scoutbase is listening',
    );
  },
);
// A port in use or not allowed: said in one line (unhandled, Node prints a stack and exits).
server.once('error', (error) => {
  void app.close().catch(() => {});
  failToStart(error);
});

// Idle keep-alive connections stay open longer than a load balancer's (60 s is common) or a client's
// own idle timeout: with Node's default of 5 s the server may close a socket just as a client sends
// on it, and that request fails with a reset.
if ('keepAliveTimeout' in server) {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

// Subscriptions over WebSocket share the HTTP server and the /graphql path.
const subscriptions = attachSubscriptions(server, app, { sessionCheckMs: config.liveSessionCheckMs });

// The whole shutdown, however it goes, ends within this (a supervisor's own grace period is
// often 10 s, after which it kills).
const SHUTDOWN_LIMIT_MS = 10_000;
// Requests still running then are cut, leaving the rest of the limit for the job queue (it lets
// running jobs finish for a few seconds, then hands them back) and the database.
const REQUESTS_LIMIT_MS = 6_000;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.logger.info({ signal }, 'shutting down: finishing open requests');
  const force = setTimeout(() => {
    app.logger.error(`shutdown did not finish in ${SHUTDOWN_LIMIT_MS / 1000} s; exiting`);
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS);
  force.unref();

  // Not ready any more, and every SSE stream ends with a reconnect hint; then no new connections.
  app.drain();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // WebSockets close with 1012 Service Restart, so their clients reconnect after a backoff.
  await subscriptions.close();
  // A keep-alive connection turns idle when its last request ends: close each as it does.
  const idle = 'closeIdleConnections' in server ? server.closeIdleConnections.bind(server) : () => {};
  idle();
  const sweep = setInterval(idle, 100);
  const cut = setTimeout(() => {
    app.logger.warn(`open requests did not finish in ${REQUESTS_LIMIT_MS / 1000} s; closing them`);
    if ('closeAllConnections' in server) server.closeAllConnections();
  }, REQUESTS_LIMIT_MS);
  await closed;
  clearInterval(sweep);
  clearTimeout(cut);

  // Running jobs are finished or released, timers stopped, the database closed.
  try {
    await app.close();
  } catch (error) {
    app.logger.error({ err: error }, 'shutdown: closing the app failed');
    process.exit(1);
  }
  app.logger.info('shut down');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
