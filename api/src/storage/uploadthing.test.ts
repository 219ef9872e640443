import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUploadThing, UT_APP_ID as APP_ID, UT_TOKEN as TOKEN } from '../../test/fakes/uploadthing.ts';
import { type SignedInUser, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { sha256, uploaded, uploadedAndProcessed } from './testing.ts';

let fake: FakeUploadThing;
let app: TestApp;
let owner: SignedInUser;

beforeAll(async () => {
  fake = new FakeUploadThing();
  await fake.start();
  app = await testApp({ UPLOADTHING_TOKEN: TOKEN }, (config) => fake.appConfig(config));
  owner = await signedInUser(app);
});
afterAll(async () => {
  await app.close();
  await fake.stop();
});

describe('UploadThing backend', () => {
  it('keeps the bytes and thumbnails at UploadThing as private files, none on local disk', async () => {
    expect(app.storage.store.kind).toBe('uploadthing');
    const answer = (await (
      await app.request('/api/objects/upload', { method: 'POST', cookie: owner.cookie })
    ).json()) as {
      tusEndpoint?: string;
    };
    // Resumable uploads are for the local disk only.
    expect(answer.tusEndpoint).toBeUndefined();

    const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#345678' } })
      .jpeg()
      .toBuffer();
    const result = await uploadedAndProcessed(app, owner, photo);
    expect(result.metadata.thumbnails).toEqual({ grid: true, grid2x: true, preview: true });
    const id = result.uploadId;
    expect([...fake.files.keys()].filter((k) => k.includes(id)).sort()).toEqual([
      `uploads~${id}`,
      `uploads~${id}.grid.webp`,
      `uploads~${id}.grid2x.webp`,
      `uploads~${id}.preview.webp`,
    ]);
    const original = fake.files.get(`uploads~${id}`);
    expect(original?.acl).toBe('private');
    expect(original?.type).toBe('image/jpeg');
    expect(sha256(original?.bytes ?? Buffer.alloc(0))).toBe(sha256(photo));
    expect(await readdir(path.join(app.dataDir, 'objects', 'uploads')).catch(() => [])).toEqual([]);
  });

  it('serves the bytes through our server, ranges included', async () => {
    const text = 'Scout report: loading dock, north side.\n';
    const result = await uploaded(app, owner, text);
    const whole = await app.request(result.objectPath, { cookie: owner.cookie });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(text.length));
    expect(await whole.text()).toBe(text);
    const part = await app.request(result.objectPath, { cookie: owner.cookie, headers: { range: 'bytes=0-11' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('Scout report');
  });

  it('deletes the object and its thumbnails there when the cleanup pass removes them', async () => {
    const photo = await sharp({ create: { width: 500, height: 500, channels: 3, background: '#aa3300' } })
      .png()
      .toBuffer();
    const result = await uploadedAndProcessed(app, owner, photo);
    await app.database.prisma.upload.update({ where: { id: result.uploadId }, data: { status: 'released' } });
    expect(await app.storage.cleanup()).toEqual({ removed: 1, failed: 0 });
    expect([...fake.files.keys()].filter((k) => k.includes(result.uploadId))).toEqual([]);
    expect(fake.calls).toContain('POST /v6/deleteFiles');
  });

  it('the fake refuses what UploadThing refuses: a tampered signature', async () => {
    const response = await fetch(
      `http://127.0.0.1:${fake.port}/abc?expires=${Date.now() + 60_000}&x-ut-identifier=${APP_ID}&signature=hmac-sha256=00`,
      { method: 'PUT', body: 'x' },
    );
    expect(response.status).toBe(403);
  });
});
