import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { scratchPostgresDatabase } from './harness.ts';

/**
 * A TCP proxy in front of a real service (PostgreSQL, Redis) that a test can cut and restore, to
 * play an outage without stopping the service everyone else's tests use. While cut, open
 * connections are reset and new ones are dropped at once.
 */
export async function tcpProxy(targetPort: number, targetHost = '127.0.0.1') {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** The service goes away: every connection through the proxy is reset. */
    cut() {
      cut = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      cut = false;
    },
    async close() {
      this.cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A scratch PostgreSQL database (see scratchPostgresDatabase) and a proxy in front of it; `url` goes through the proxy. */
export async function databaseBehindProxy(prefix: string) {
  const database = await scratchPostgresDatabase(prefix);
  const url = new URL(database.url);
  const proxy = await tcpProxy(Number(url.port || 5432), url.hostname);
  url.host = `127.0.0.1:${proxy.port}`;
  return { database, proxy, url: url.toString() };
}
