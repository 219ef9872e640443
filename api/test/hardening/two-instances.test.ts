import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserRequests, sendBody, signedInUser, testApp, type TestApp } from '../harness.ts';
import { collect, listen, secondInstance, wsClient } from '../live.ts';

// Two instances behind a load balancer: one database, one Redis, one storage directory
// (secondInstance shares the first's configuration, database and data directory).
const REDIS_URL = 'redis://127.0.0.1:6379';

let a: TestApp;
let b: Awaited<ReturnType<typeof secondInstance>>;
let serverB: Awaited<ReturnType<typeof listen>>;
let onB: TestApp['request'];

beforeAll(async () => {
  a = await testApp({ REDIS_URL, RATE_LIMITS: 'true', TRUST_PROXY: '1' });
  b = await secondInstance(a);
  await Promise.all([a.services.events.ready(), b.services.events.ready()]);
  serverB = await listen(b);
  onB = browserRequests(b);
});
afterAll(async () => {
  await serverB?.close();
  await b?.close();
  await a?.close();
});

it('serves one session, one upload and one stream of live updates from either instance', async () => {
  const ana = await signedInUser(a);
  // A session made on A works on B.
  const profile = await onB('/api/auth/user', { cookie: ana.cookie });
  expect(profile.status).toBe(200);
  expect(await profile.json()).toMatchObject({ id: ana.id, email: ana.email });

  // An upload URL from A takes the bytes on B; A files and serves them (one storage directory).
  const pdf = () => {
    const bytes = randomBytes(64 * 1024);
    bytes.write('%PDF-1.7\n', 0);
    return bytes;
  };
  const urlFromA = async () =>
    (
      (await (await a.request('/api/objects/upload', { method: 'POST', cookie: ana.cookie })).json()) as {
        uploadURL: string;
      }
    ).uploadURL;
  const first = await urlFromA();
  const bytes = pdf();
  const put = await onB(first, { method: 'PUT', cookie: ana.cookie, body: bytes });
  expect(put.status).toBe(200);
  const filed = await sendBody(a, ana.cookie, 'POST', '/api/files', { name: 'contract.pdf', objectUrl: first });
  expect(filed.status).toBe(201);
  const served = await a.request(new URL(first).pathname, { cookie: ana.cookie });
  expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

  // Ana watches an upload from B while its bytes arrive on A.
  const second = await urlFromA();
  const uploadId = new URL(second).pathname.split('/').pop();
  const client = wsClient(serverB.ws, { cookie: ana.cookie });
  const progress = collect<{ uploadProgress: { uploadId: string; status: string } }>(
    client,
    'subscription($id: ID) { uploadProgress(uploadId: $id) { uploadId status } }',
    { id: uploadId },
  );
  await new Promise((r) => setTimeout(r, 300)); // the subscription is registered
  expect((await a.request(second, { method: 'PUT', cookie: ana.cookie, body: pdf() })).status).toBe(200);
  // uploading, processing, … then uploaded: wait for the last one.
  const statuses = () => progress.results.map((r) => r.data?.uploadProgress.status);
  while (!statuses().includes('uploaded')) await progress.next(progress.results.length + 1, 10_000);
  expect(statuses()).toContain('uploaded');
  await client.dispose();
});

it('shares rate-limit budgets across instances through Redis', async () => {
  const from = `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const limit = a.config.rateLimits?.signUp.perAddress.limit ?? 0;
  let refused = 0;
  for (let i = 0; i < limit + 1; i++) {
    const request = i % 2 === 0 ? a.request : onB;
    const response = await request('/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({
        name: 'Crew Member',
        email: `m${i}-${randomBytes(4).toString('hex')}@example.com`,
        password: 'correct horse battery',
      }),
    });
    if (response.status === 429) refused++;
  }
  expect(refused).toBe(1);
});
