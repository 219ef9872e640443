import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { scratchPostgresDatabase, TestApp } from '../harness.ts';
import { graphql, postgresReachable, settingsFor, signedInUser, startedApp, testApp } from '../harness.ts';
import { databaseBehindProxy, tcpProxy } from '../tcp-proxy.ts';

const reachable = await postgresReachable();

describe('/api/ready and /metrics on the embedded database', () => {
  let app: TestApp;
  const token = randomBytes(16).toString('hex');
  beforeAll(async () => {
    app = await testApp({ METRICS_TOKEN: token });
  });
  afterAll(() => app.close());

  it('/api/health says the process is alive; /api/ready names each part it checked', async () => {
    expect(await (await app.request('/api/health')).json()).toEqual({ ok: true });
    const ready = await app.request('/api/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, checks: { database: 'ok', storage: 'ok' } });
  });

  it('/api/ready answers 503 naming storage when its folder cannot be written', async () => {
    const objects = path.join(app.dataDir, 'objects');
    await rm(objects, { recursive: true, force: true });
    // A file where the folder should be: what a vanished or read-only mount looks like to a write.
    await writeFile(objects, '');
    try {
      const ready = await app.request('/api/ready');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        ok: false,
        failing: ['storage'],
        checks: { database: 'ok', storage: 'unreachable' },
        message: 'Not ready: storage not answering',
      });
    } finally {
      await rm(objects, { force: true });
    }
    expect((await app.request('/api/ready')).status).toBe(200);
  });

  it('/metrics asks for the token, then counts requests by route pattern and GraphQL operations by name', async () => {
    const user = await signedInUser(app);
    const unknownId = '7b0e3c0a-1111-4222-8333-944445555666';
    await app.request(`/api/galleries/${unknownId}`, { cookie: user.cookie });
    await graphql(app, user.cookie, 'query MetricsProbeQuery { unreadNotificationCount }');

    expect((await app.request('/metrics')).status).toBe(401);
    expect((await app.request('/metrics', { headers: { authorization: 'Bearer wrong-token-wrong' } })).status).toBe(
      401,
    );
    const response = await app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/scoutbase_http_requests_total\{method="GET",route="\/api\/galleries\/:id",status="404"\} 1/);
    expect(text).not.toContain(unknownId);
    expect(text).toMatch(
      /scoutbase_graphql_operations_total\{operation="MetricsProbeQuery",type="query",outcome="ok"\} 1/,
    );
    expect(text).toMatch(/scoutbase_graphql_operation_duration_seconds_count\{operation="MetricsProbeQuery"/);
    expect(text).toContain('scoutbase_sse_connections 0');
    expect(text).toContain('scoutbase_websocket_connections 0');
    expect(text).toContain('process_cpu_seconds_total');
    // The job queues, each by name (the durable queue in the same database).
    expect(text).toMatch(/scoutbase_jobs_queued\{queue="[\w.]+"\} \d+/);
    expect(text).toMatch(/scoutbase_jobs_oldest_queued_seconds\{queue="[\w.]+"\} [\d.]+/);
    // PostgreSQL's pool is reported; the embedded database has none.
    if (app.database.poolStats()) expect(text).toMatch(/scoutbase_db_pool_connections \d+/);
    else expect(text).not.toContain('scoutbase_db_pool_connections');
  });
});

describe('/metrics without a token', () => {
  it('is open outside production', async () => {
    const app = await testApp();
    try {
      expect((await app.request('/metrics')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is off in production', async () => {
    const app = await testApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://scout.example.com' });
    try {
      const response = await app.request('/metrics');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'Metrics are off: set METRICS_TOKEN to read them.' });
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(!reachable)('/api/ready on PostgreSQL and Redis outages', () => {
  let database: Awaited<ReturnType<typeof scratchPostgresDatabase>>;
  let pgProxy: Awaited<ReturnType<typeof tcpProxy>>;
  let redisProxy: Awaited<ReturnType<typeof tcpProxy>>;
  let app: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    let url: string;
    ({ database, proxy: pgProxy, url } = await databaseBehindProxy('scoutbase_ready'));
    redisProxy = await tcpProxy(6379);
    dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-ready-'));
    app = await startedApp({
      ...settingsFor(dataDir, url),
      AUTH_SECRET: randomBytes(32).toString('hex'),
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
    });
    await app.services.events.ready();
  }, 60_000);

  afterAll(async () => {
    pgProxy?.restore();
    redisProxy?.restore();
    await app?.close();
    await pgProxy?.close();
    await redisProxy?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function readyUntil(status: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await app.request('/api/ready');
      const body = await response.json();
      if (response.status === status || Date.now() > deadline) return { status: response.status, body };
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('answers 503 naming the database while PostgreSQL is unreachable, and 200 again once it is back', async () => {
    expect(await readyUntil(200)).toEqual({
      status: 200,
      body: { ok: true, checks: { database: 'ok', redis: 'ok', storage: 'ok' } },
    });
    // The pool's figures are in /metrics on PostgreSQL.
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toMatch(/scoutbase_db_pool_connections \d+/);
    expect(metrics).toMatch(/scoutbase_db_pool_waiting_clients 0/);

    pgProxy.cut();
    const started = Date.now();
    const down = await app.request('/api/ready');
    // Within the probe's own timeout, not after the pool's.
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      ok: false,
      failing: ['database'],
      checks: { database: 'unreachable', redis: 'ok', storage: 'ok' },
      message: 'Not ready: database not answering',
    });
    // Liveness is not readiness: the process is still alive.
    expect((await app.request('/api/health')).status).toBe(200);

    pgProxy.restore();
    expect((await readyUntil(200)).status).toBe(200);
  }, 60_000);

  it('answers 503 naming Redis while Redis is unreachable', async () => {
    redisProxy.cut();
    const down = await readyUntil(503);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ failing: ['redis'], checks: { database: 'ok', redis: 'unreachable' } });
    redisProxy.restore();
    expect((await readyUntil(200)).status).toBe(200);
  }, 60_000);

  it('answers 503 naming the shutdown once the instance drains', async () => {
    app.drain();
    const response = await app.request('/api/ready');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ failing: ['shutdown'] });
  });
});
