import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.ts';
import {
  borrowedDatabase,
  browserRequests,
  person,
  sendBody,
  signedInUser,
  testApp,
  type TestApp,
} from '../harness.ts';
import { tcpProxy } from '../tcp-proxy.ts';

// Redis (live updates, shared rate limits) goes away behind a proxy the test cuts: the rest of
// the app keeps working, the outage is logged, and both come back when Redis does.
let base: TestApp;
let app: App & Pick<TestApp, 'request'>;
let proxy: Awaited<ReturnType<typeof tcpProxy>>;
const logged: string[] = [];

beforeAll(async () => {
  proxy = await tcpProxy(6379);
  base = await testApp();
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
  const started = await createApp(
    { ...base.config, redisUrl: `redis://127.0.0.1:${proxy.port}`, trustProxy: { hops: 1 } },
    { database: borrowedDatabase(base), logger },
  );
  app = Object.assign(started, { request: browserRequests(started) });
  await app.services.events.ready();
});
// The second app first: closing the database under it while its jobs still ran left pg-boss
// recording a job's end on a closed database (an unhandled rejection in the next test file).
afterAll(async () => {
  await app.services.events.close();
  await app.close().catch(() => {});
  await base.close();
  await proxy.close();
});

async function heard(userId: string, during: () => Promise<unknown>, ms = 1500) {
  const iterator = app.services.events.subscribe('notification:added', userId)[Symbol.asyncIterator]();
  await new Promise((r) => setTimeout(r, 200));
  const next = iterator.next();
  await during();
  const result = await Promise.race([next, new Promise((r) => setTimeout(() => r(null), ms))]);
  await iterator.return?.();
  return result !== null;
}

it('keeps serving while Redis is away, logs the outage, and shares events again when it returns', async () => {
  const ana = await signedInUser(base);
  const userId = `outage-${randomBytes(4).toString('hex')}`;
  const publish = () => {
    app.services.events.publish('notification:added', userId, { notificationId: 'n1' });
    return Promise.resolve();
  };
  expect(await heard(userId, publish)).toBe(true);

  proxy.cut();
  await new Promise((r) => setTimeout(r, 500));
  // The rest of the app: sign-up (rate limited through Redis), data, upload URLs, GraphQL.
  const signup = await app.request('/api/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.20.30.40' },
    body: JSON.stringify(person()),
  });
  expect(signup.status).toBe(202);
  const task = await sendBody(app, ana.cookie, 'POST', '/api/tasks', { title: 'During the outage' });
  expect(task.status).toBe(201);
  expect((await app.request('/api/objects/upload', { method: 'POST', cookie: ana.cookie })).status).toBe(200);
  const viewer = await sendBody(app, ana.cookie, 'POST', '/graphql', { query: '{ viewer { id } }' });
  expect(viewer.status).toBe(200);
  expect(logged.some((line) => line.includes('Redis is unreachable'))).toBe(true);

  proxy.restore();
  await app.services.events.ready();
  // Events flow through Redis again (the subscriber re-subscribed by itself).
  let back = false;
  for (let i = 0; i < 10 && !back; i++) back = await heard(userId, publish, 1000);
  expect(back).toBe(true);
  expect(logged.some((line) => line.includes('Redis is back'))).toBe(true);
}, 60_000);
