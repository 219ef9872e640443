import { Readable } from 'node:stream';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { Prisma } from '../generated/prisma/client.ts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, sendBody } from '../../test/harness.ts';
import { listeningOverSse } from '../../test/sse.ts';
import { variantKey } from './images.ts';
import {
  addGrid2x,
  missingGrid2xSql,
  processUpload,
  queueMissingGrid2x,
  requeueUnprocessed,
  UPLOADS_FIRST,
} from './processing.ts';
import { arrivingPut, processed, uploaded } from './testing.ts';

// A picture's EXIF facts and thumbnails are made by a durable job after the upload has answered.

let app: TestApp, owner: User, stranger: User;
beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

function geotaggedPhoto(colour = '#5a7d3c') {
  return sharp({ create: { width: 3000, height: 2000, channels: 3, background: colour } })
    .jpeg({ quality: 70 })
    .withExif({
      IFD0: { Make: 'Canon', Model: 'Canon EOS R5' },
      IFD2: { DateTimeOriginal: '2024:05:01 10:20:30' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 30/1' },
    })
    .toBuffer();
}

const FILE_QUERY = `query ($id: ID!) {
  node(id: $id) { ... on File { processing thumbnailUrl(size: GRID) image { takenAt gps { latitude longitude } } } }
}`;

async function fileOverGraphql(id: string) {
  const { data } = await graphql<{
    node: { processing: boolean; thumbnailUrl: string | null; image: { takenAt: string; gps: object } | null };
  }>(app, owner.cookie, FILE_QUERY, { id });
  return data?.node;
}

async function fileUpload(uploadURL: string, name: string) {
  const response = await sendBody(app, owner.cookie, 'POST', '/api/files', { name, objectUrl: uploadURL });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

describe('post-upload processing', () => {
  it('answers the upload before the thumbnails exist; the job adds them, the EXIF facts and tells the uploader live', async () => {
    const live = await listeningOverSse<{ data: { uploadProcessed: { uploadId: string | null; files: unknown[] } } }>(
      app,
      owner.cookie,
      'subscription { uploadProcessed { uploadId files { name processing thumbnailUrl(size: GRID) } } }',
    );

    // The answer says the picture is still being processed: the upload did not wait for the job.
    const result = await uploaded(app, owner, await geotaggedPhoto());
    expect(result.metadata).toEqual({ processing: true });
    expect((await app.request(`${result.objectPath}?variant=grid`, { cookie: owner.cookie })).status).toBe(404);
    const filed = await fileUpload(result.uploadURL, 'north gate.jpg');
    const id = encodeGlobalID('File', filed.id);
    const before = await fileOverGraphql(id);
    if (before?.processing) expect(before).toEqual({ processing: true, thumbnailUrl: null, image: null });

    await processed(app, result.uploadId);
    expect(await fileOverGraphql(id)).toEqual({
      processing: false,
      thumbnailUrl: `${result.objectPath}?variant=grid`,
      image: { takenAt: '2024-05-01T10:20:30', gps: { latitude: 51.5, longitude: -0.125 } },
    });
    const record = await app.database.prisma.file.findUniqueOrThrow({ where: { id: filed.id } });
    expect(record.metadata).toMatchObject({
      thumbnails: { grid: true, grid2x: true, preview: true },
      image: { width: 3000 },
    });
    expect(record.metadata).not.toHaveProperty('processing');
    // Each size at its longer side, the 3:2 shape kept: the grid, the grid for high-density screens, the preview.
    for (const [variant, width, height] of [
      ['grid', 400, 267],
      ['grid2x', 800, 534],
      ['preview', 1600, 1067],
    ] as const) {
      const served = await app.request(`${result.objectPath}?variant=${variant}`, { cookie: owner.cookie });
      expect(served.status).toBe(200);
      expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({
        width,
        height,
        format: 'webp',
      });
    }

    // It opens once every later event is sure to be sent: a client reads again what it holds as processing.
    const [opening, event] = await live.until((r) => r.length >= 2);
    expect(opening?.data.uploadProcessed).toEqual({ uploadId: null, files: [] });
    expect(event?.data.uploadProcessed).toEqual({
      uploadId: result.uploadId,
      files: [{ name: 'north gate.jpg', processing: false, thumbnailUrl: `${result.objectPath}?variant=grid` }],
    });
    await live.close();
  });

  it('lets arriving bytes go first: a picture waits for its thumbnails while another upload is arriving', async () => {
    // Another upload whose bytes are still arriving.
    const arriving = await arrivingPut(app, owner, new TextEncoder().encode('%PDF-1.7\n'));
    try {
      const photo = await uploaded(app, owner, await geotaggedPhoto('#3c5a7d'));
      await new Promise((resolve) => setTimeout(resolve, UPLOADS_FIRST.maxWaitMs / 3));
      const waiting = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: photo.uploadId } });
      expect(waiting.metadata).toEqual({ processing: true });
      arriving.end('close');
      expect((await arriving.answer).status).toBe(200);
      const row = await processed(app, photo.uploadId, 20_000);
      expect(row.metadata).toMatchObject({ thumbnails: { grid: true, preview: true } });
    } finally {
      arriving.end('close');
    }
  });

  it('does no harm when it runs twice, and a second run changes nothing', async () => {
    const result = await uploaded(app, owner, await geotaggedPhoto('#223344'));
    const first = await processed(app, result.uploadId);
    const deps = { ...app.storage.deps };
    expect(await processUpload(deps, result.uploadId)).toBe(false);
    // Even a run that finds the row still marked (a crash after the thumbnails, before the row) only repeats the same work.
    await app.database.prisma.upload.update({
      where: { id: result.uploadId },
      data: { metadata: { processing: true } },
    });
    expect(await processUpload(deps, result.uploadId)).toBe(true);
    const again = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: result.uploadId } });
    expect(again.metadata).toEqual(first.metadata);
  });

  it('keeps a picture libvips cannot read, without thumbnails, and ends its processing', async () => {
    const broken = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    const result = await uploaded(app, owner, broken);
    const row = await processed(app, result.uploadId);
    expect(row.metadata).toEqual({});
    expect((await app.request(`${result.objectPath}?variant=grid`, { cookie: owner.cookie })).status).toBe(404);
  });

  it('does not process files that are not pictures, and a stranger hears nothing of it', async () => {
    const result = await uploaded(app, stranger, 'call sheet\n');
    expect(result.metadata).toEqual({});
  });

  it('queues again an upload whose job was lost (the process died before it was queued)', async () => {
    const result = await uploaded(app, owner, await geotaggedPhoto('#883322'));
    await processed(app, result.uploadId);
    await app.database.prisma.upload.update({
      where: { id: result.uploadId },
      data: { metadata: { processing: true } },
    });
    const waiting = processed(app, result.uploadId);
    expect(await requeueUnprocessed(app.storage.deps, { olderThan: new Date(Date.now() + 1000) })).toBe(1);
    const row = await waiting;
    expect(row.metadata).toMatchObject({ thumbnails: { grid: true, preview: true } });
  });

  it('gives pictures processed before the grid had a high-density size their grid2x, from the preview, once', async () => {
    const db = app.database.prisma;
    const result = await uploaded(app, owner, await geotaggedPhoto('#335577'));
    await processed(app, result.uploadId);
    const filed = await fileUpload(result.uploadURL, 'old gate.jpg');
    const id = encodeGlobalID('File', filed.id);
    // As a picture processed before grid2x existed: no such file, and the metadata does not name it.
    const { objectKey } = await db.upload.findUniqueOrThrow({ where: { id: result.uploadId } });
    await app.storage.store.delete(variantKey(objectKey, 'grid2x'));
    const old = { image: { width: 3000, height: 2000 }, thumbnails: { grid: true, preview: true } };
    await db.upload.update({ where: { id: result.uploadId }, data: { metadata: old } });
    await db.file.update({ where: { id: filed.id }, data: { metadata: old } });
    const grid2x = `query ($id: ID!) { node(id: $id) { ... on File { thumbnailUrl(size: GRID_2X) } } }`;
    expect((await graphql(app, owner.cookie, grid2x, { id })).data).toEqual({ node: { thumbnailUrl: null } });
    expect((await app.request(`${result.objectPath}?variant=grid2x`, { cookie: owner.cookie })).status).toBe(404);

    // The clean-up pass queues it; the job makes it and records it on the upload and the file.
    expect(await queueMissingGrid2x(app.storage.deps)).toBe(1);
    for (let waited = 0; ; waited += 50) {
      const row = await db.file.findUniqueOrThrow({ where: { id: filed.id } });
      if ((row.metadata as typeof old & { thumbnails: { grid2x?: boolean } }).thumbnails.grid2x !== undefined) break;
      if (waited > 20_000) throw new Error('the grid2x job did not run');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await db.upload.findUniqueOrThrow({ where: { id: result.uploadId } })).metadata).toEqual({
      ...old,
      thumbnails: { grid: true, grid2x: true, preview: true },
    });
    expect((await graphql(app, owner.cookie, grid2x, { id })).data).toEqual({
      node: { thumbnailUrl: `${result.objectPath}?variant=grid2x` },
    });
    const served = await app.request(`${result.objectPath}?variant=grid2x`, { cookie: owner.cookie });
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ width: 800, height: 534 });
    // Done once: nothing left to queue, and another run changes nothing.
    expect(await queueMissingGrid2x(app.storage.deps)).toBe(0);
    expect(await addGrid2x(app.storage.deps, result.uploadId)).toBe(false);

    // A preview that is unreadable or gone is recorded as such, so it is not asked for again; the
    // grid keeps its 400 px.
    const previewKey = variantKey(objectKey, 'preview');
    for (const spoil of [
      () => app.storage.store.put(previewKey, Readable.from([Buffer.from('not a picture')])),
      () => app.storage.store.delete(previewKey),
    ]) {
      await spoil();
      await db.upload.update({ where: { id: result.uploadId }, data: { metadata: old } });
      expect(await addGrid2x(app.storage.deps, result.uploadId)).toBe(false);
      expect((await db.upload.findUniqueOrThrow({ where: { id: result.uploadId } })).metadata).toMatchObject({
        thumbnails: { grid: true, grid2x: false, preview: true },
      });
      expect(await queueMissingGrid2x(app.storage.deps)).toBe(0);
    }
  });

  it('finds the pictures still without grid2x through a partial index, so a pass after the backfill reads nothing', async () => {
    // With scans of the table ruled out the planner takes the cheapest index whose predicate the
    // query implies: the status index would do, so only a matching predicate names this one.
    const plan = await app.database.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      return tx.$queryRaw<unknown[]>(Prisma.sql`EXPLAIN (FORMAT JSON) ${missingGrid2xSql(1000)}`);
    });
    expect(JSON.stringify(plan)).toContain('"Index Name":"Upload_lacks_grid2x_idx"');
  });
});
