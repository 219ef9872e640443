import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3ObjectStore } from '../src/infra/objects/s3.ts';
import { S3_UPLOADS_URL, type DirectUploadResult, type S3UploadPlan } from '../src/storage/contract.ts';
import { sha256 } from '../src/storage/testing.ts';
import {
  postgresReachable,
  scratchPostgresDatabase,
  sendBody,
  settingsFor,
  signedInUser,
  startedApp,
  type TestApp,
} from './harness.ts';
import { startBucket, type TestBucket } from './s3.ts';

// Two app servers with nothing on a shared disk: one PostgreSQL, one Redis, one bucket. What one
// stores, the other serves and deletes.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const reachable = await postgresReachable();

describe.runIf(reachable)('two app servers on one PostgreSQL, Redis and bucket', () => {
  let bucket: TestBucket;
  let database: Awaited<ReturnType<typeof scratchPostgresDatabase>>;
  let first: TestApp;
  let second: TestApp;
  const dirs: string[] = [];

  beforeAll(async () => {
    bucket = await startBucket();
    database = await scratchPostgresDatabase('scoutbase_s3_two');
    const secret = randomBytes(32).toString('hex');
    const settings = async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'scoutbase-s3-instance-'));
      dirs.push(dir);
      return { ...settingsFor(dir, database.url), ...bucket.env, AUTH_SECRET: secret, REDIS_URL };
    };
    // One after the other: the first migrates the empty database.
    first = await startedApp(await settings());
    second = await startedApp(await settings());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.drop();
    await bucket?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('upload through the first; thumbnail and bytes through the second; deleted through the second, gone from the bucket', async () => {
    expect(first.storage.store.kind).toBe('s3');
    const owner = await signedInUser(first);
    const bytes = new Uint8Array(
      await sharp({ create: { width: 900, height: 600, channels: 3, background: '#2f6b4a' } })
        .jpeg()
        .toBuffer(),
    );

    const planned = await sendBody(first, owner.cookie, 'POST', S3_UPLOADS_URL, {
      size: bytes.length,
      contentType: 'image/jpeg',
    });
    expect(planned.status).toBe(200);
    const plan = (await planned.json()) as S3UploadPlan;
    if (!plan.put) throw new Error('expected a single PUT');
    const sent = await fetch(plan.put.url, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': plan.put.contentType },
    });
    expect(sent.status).toBe(200);
    const completed = await first.request(`${S3_UPLOADS_URL}/${plan.uploadId}/complete`, {
      method: 'POST',
      cookie: owner.cookie,
    });
    expect(completed.status).toBe(200);
    const result = (await completed.json()) as DirectUploadResult;
    if (!result.ok) throw new Error(result.message);
    const filed = await sendBody(first, owner.cookie, 'POST', '/api/files', {
      name: 'greenhouse.jpg',
      objectUrl: plan.uploadURL,
      folderId: null,
    });
    expect(filed.status).toBe(201);
    const fileId = ((await filed.json()) as { id: string }).id;

    // Thumbnails are made by whichever server's worker takes the job; the second serves them.
    const deadline = Date.now() + 60_000;
    let grid = await second.request(`${result.objectPath}?variant=grid`, { cookie: owner.cookie });
    while (grid.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      grid = await second.request(`${result.objectPath}?variant=grid`, { cookie: owner.cookie });
    }
    expect(grid.status).toBe(200);
    expect(grid.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(new Uint8Array(await grid.arrayBuffer())).metadata()).width).toBe(400);

    const whole = await second.request(result.objectPath, { cookie: owner.cookie });
    expect(whole.status).toBe(200);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bytes));
    const range = await second.request(result.objectPath, { cookie: owner.cookie, headers: { range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.subarray(0, 100));

    // No server keeps the bytes on its own disk.
    for (const dir of dirs) expect(await readdir(path.join(dir, 'objects', 'uploads')).catch(() => [])).toEqual([]);

    const store = second.storage.store as S3ObjectStore;
    const keys = async () => {
      const found: string[] = [];
      for await (const key of store.list(`uploads/${result.uploadId}`)) found.push(key);
      return found.sort();
    };
    expect(await keys()).toEqual([
      `uploads/${result.uploadId}`,
      `uploads/${result.uploadId}.grid.webp`,
      `uploads/${result.uploadId}.grid2x.webp`,
      `uploads/${result.uploadId}.preview.webp`,
    ]);

    const deleted = await second.request(`/api/files/${fileId}`, { method: 'DELETE', cookie: owner.cookie });
    expect(deleted.status).toBeLessThan(300);
    // The bytes go in the cleanup pass that follows the records' deletion (either server runs it).
    await second.storage.cleanup();
    expect(await keys()).toEqual([]);
    expect((await first.request(result.objectPath, { cookie: owner.cookie })).status).toBe(404);
  });
});
