import { serve, type HttpBindings } from '@hono/node-server';
import { createApp } from './app.ts';
import { ConfigError, readConfig } from './config.ts';
import { attachSubscriptions } from './live/websocket.ts';

let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = await createApp(config);
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

// Idle keep-alive connections stay open longer than a load balancer's (60 s is common) or a client's
// own idle timeout: with Node's default of 5 s the server may close a socket just as a client sends
// on it, and that request fails with a reset.
if ('keepAliveTimeout' in server) {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

// Subscriptions over WebSocket share the HTTP server and the /graphql path.
const subscriptions = attachSubscriptions(server, app);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.logger.info({ signal }, 'shutting down: finishing open requests');
  // Stop taking connections, let the open requests finish, then close the database.
  const force = setTimeout(() => {
    app.logger.warn('open requests did not finish in 10 s; closing anyway');
    process.exit(1);
  }, 10_000);
  force.unref();
  await subscriptions.close();
  server.close(async () => {
    await app.close();
    process.exit(0);
  });
  if ('closeIdleConnections' in server) server.closeIdleConnections();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
