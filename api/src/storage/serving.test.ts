import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { fileRecord, sha256, uploaded, uploadedAndProcessed } from './testing.ts';

let app: TestApp, owner: User, stranger: User;
beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

/** A 3000×2000 photo as a phone would take it: portrait orientation flag, camera, lens, GPS. */
function geotaggedPhoto() {
  return sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#5a7d3c' } })
    .jpeg({ quality: 70 })
    .withExif({
      IFD0: { Make: 'Canon', Model: 'Canon EOS R5' },
      IFD2: { DateTimeOriginal: '2024:05:01 10:20:30', LensModel: 'RF24-70mm F2.8 L IS USM' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 30/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

async function get(path: string, who?: User, headers: Record<string, string> = {}) {
  return app.request(path, { cookie: who?.cookie, headers });
}

describe('images', () => {
  it('stores WebP thumbnails and the EXIF facts with the upload once it is processed', async () => {
    const photo = await geotaggedPhoto();
    const result = await uploadedAndProcessed(app, owner, photo);
    expect(result.mimeType).toBe('image/jpeg');
    const image = (result.metadata as { image: Record<string, unknown> }).image;
    expect(image).toMatchObject({
      camera: 'Canon EOS R5',
      lens: 'RF24-70mm F2.8 L IS USM',
      takenAt: '2024-05-01T10:20:30',
      gps: { latitude: 51.5, longitude: -0.125 },
    });
    // Orientation 6 (rotate 90°) makes the stored 3000×2000 landscape an upright portrait.
    expect(image).toMatchObject({ orientation: 6, width: 2000, height: 3000 });
    expect(result.metadata.thumbnails).toEqual({ grid: true, grid2x: true, preview: true });

    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: result.uploadId } });
    expect(row.metadata).toEqual(result.metadata);

    for (const [variant, size] of [
      ['grid', 400],
      ['preview', 1600],
    ] as const) {
      const response = await get(`${result.objectPath}?variant=${variant}`, owner);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
      // Thumbnails are turned upright: portrait, longer side `size`.
      expect(meta.height).toBe(size);
      expect(meta.width).toBe(Math.round((size * 2) / 3));
    }
  });

  it('serves a PNG without EXIF with its dimensions and no GPS', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#ffffff80' } })
      .png()
      .toBuffer();
    const result = await uploadedAndProcessed(app, owner, png);
    expect(result.mimeType).toBe('image/png');
    expect(result.metadata).toEqual({
      image: { width: 300, height: 200 },
      thumbnails: { grid: true, grid2x: true, preview: true },
    });
  });

  it('keeps a picture libvips cannot read, without thumbnails', async () => {
    const broken = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    const result = await uploadedAndProcessed(app, owner, broken);
    expect(result.mimeType).toBe('image/png');
    expect(result.metadata).toEqual({});
    expect((await get(`${result.objectPath}?variant=grid`, owner)).status).toBe(404);
  });
});

describe('GET /objects/uploads/:id', () => {
  it('serves the uploader before the record exists, and nobody else', async () => {
    const result = await uploaded(app, owner, 'draft notes\n');
    expect((await get(result.objectPath, owner)).status).toBe(200);
    const refused = await get(result.objectPath, stranger);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ message: 'File not found', code: 'NOT_FOUND' });
    expect((await get(result.objectPath)).status).toBe(404);
  });

  it('serves readers of the file record; a stranger and a signed-out visitor get 404', async () => {
    const bytes = await geotaggedPhoto();
    const result = await uploaded(app, owner, bytes);
    await fileRecord(app, owner, result.uploadURL, { name: 'north gate.jpg' });
    const response = await get(result.objectPath, owner);
    expect(response.status).toBe(200);
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes));
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
    expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe(
      `inline; filename="north gate.jpg"; filename*=UTF-8''north%20gate.jpg`,
    );
    const asDownload = await get(`${result.objectPath}?download=1`, owner);
    expect(asDownload.headers.get('content-disposition')).toMatch(/^attachment; filename="north gate.jpg"/);
    for (const path of [result.objectPath, `${result.objectPath}?variant=grid`]) {
      expect((await get(path, stranger)).status).toBe(404);
      expect((await get(path)).status).toBe(404);
    }
  });

  it('serves a file in a gallery shared read-only with a project to its members, and stops when revoked', async () => {
    const db = app.database.prisma;
    const member = await signedInUser(app);
    const result = await uploaded(app, owner, 'shared scout notes\n');
    const file = await fileRecord(app, owner, result.uploadURL, { name: 'notes.txt' });
    const project = await db.project.create({
      data: {
        name: 'Harbour shoot',
        type: 'movie',
        ownerId: owner.id,
        members: {
          create: [
            { userId: owner.id, role: 'owner' },
            { userId: member.id, role: 'member' },
          ],
        },
      },
    });
    const gallery = await db.gallery.create({ data: { ownerId: owner.id, name: 'Docks' } });
    await db.galleryItem.create({ data: { galleryId: gallery.id, fileId: file.id, position: 0, addedById: owner.id } });
    expect((await get(result.objectPath, member)).status).toBe(404);
    const share = await db.galleryShare.create({
      data: {
        galleryId: gallery.id,
        projectId: project.id,
        permission: 'read',
        status: 'active',
        sharedById: owner.id,
      },
    });
    const response = await get(result.objectPath, member);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('shared scout notes\n');
    expect((await get(result.objectPath, stranger)).status).toBe(404);
    await db.galleryShare.delete({ where: { id: share.id } });
    expect((await get(result.objectPath, member)).status).toBe(404);
  });

  it('serves a public file to anyone signed in', async () => {
    const result = await uploaded(app, owner, 'public call sheet\n');
    await fileRecord(app, owner, result.uploadURL, { name: 'call-sheet.txt', isPublic: true });
    const response = await get(result.objectPath, stranger);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; /);
  });

  it('serves byte ranges (videos seek) and answers 416 past the end', async () => {
    const text = 'abcdefghijklmnopqrstuvwxyz\n';
    const result = await uploaded(app, owner, text);
    const part = await get(result.objectPath, owner, { range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-5/${text.length}`);
    expect(part.headers.get('content-length')).toBe('4');
    expect(await part.text()).toBe('cdef');

    const tail = await get(result.objectPath, owner, { range: 'bytes=-3' });
    expect(tail.status).toBe(206);
    expect(await tail.text()).toBe('yz\n');

    const open = await get(result.objectPath, owner, { range: 'bytes=20-' });
    expect(open.headers.get('content-range')).toBe(`bytes 20-26/${text.length}`);
    expect(await open.text()).toBe('uvwxyz\n');

    const past = await get(result.objectPath, owner, { range: 'bytes=100-200' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${text.length}`);

    // A stale If-Range gets the whole file.
    const stale = await get(result.objectPath, owner, { range: 'bytes=2-5', 'if-range': '"old"' });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(text);
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const result = await uploaded(app, owner, 'cache me\n');
    const etag = `"${result.checksum}"`;
    const cached = await get(result.objectPath, owner, { 'if-none-match': `W/"other", ${etag}` });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    const head = await app.request(result.objectPath, { method: 'HEAD', cookie: owner.cookie });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('9');
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  it('names downloads safely whatever the file was called', async () => {
    const result = await uploaded(app, owner, 'not really a report\n');
    await fileRecord(app, owner, result.uploadURL, { name: '../../etc/"passwd"\u0007\r\nX-Evil: 1 résumé.txt' });
    const response = await get(result.objectPath, owner);
    const header = response.headers.get('content-disposition') ?? '';
    expect(header).not.toMatch(/[\r\n\0]/);
    expect(header).toBe(
      // Each character no disk takes (quotes, slashes, control characters, a drive's colon) is "_".
      `attachment; filename=".._.._etc__passwd____X-Evil_ 1 r_sum_.txt"; filename*=UTF-8''.._.._etc__passwd____X-Evil_%201%20r%C3%A9sum%C3%A9.txt`,
    );
  });

  it('answers 404 for released bytes, unknown ids and bad ids, 400 for an unknown variant', async () => {
    const result = await uploaded(app, owner, 'to be deleted\n');
    await app.database.prisma.upload.update({ where: { id: result.uploadId }, data: { status: 'released' } });
    expect((await get(result.objectPath, owner)).status).toBe(404);
    expect((await get('/objects/uploads/00000000-0000-4000-8000-000000000000', owner)).status).toBe(404);
    expect((await get('/objects/uploads/..%2F..%2Fauth-secret', owner)).status).toBe(404);
    const kept = await uploaded(app, owner, 'kept\n');
    expect((await get(`${kept.objectPath}?variant=huge`, owner)).status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('gives a file its url, thumbnails and picture facts, and the viewer their storage', async () => {
    const result = await uploadedAndProcessed(app, owner, await geotaggedPhoto());
    const file = await fileRecord(app, owner, result.uploadURL, { name: 'gate.jpg' });
    const id = Buffer.from(`File:${file.id}`).toString('base64');
    const { data, errors } = await graphql<{
      node: Record<string, unknown>;
      viewer: { storage: { usedBytes: number; quotaBytes: number } };
    }>(
      app,
      owner.cookie,
      `query ($id: ID!) {
        node(id: $id) { ... on File { url thumbnailUrl preview: thumbnailUrl(size: PREVIEW)
          image { width height camera lens takenAt gps { latitude longitude } } } }
        viewer { storage { usedBytes quotaBytes availableBytes } }
      }`,
      { id },
    );
    expect(errors).toBeUndefined();
    expect(data?.node).toMatchObject({
      url: result.objectPath,
      thumbnailUrl: `${result.objectPath}?variant=grid`,
      preview: `${result.objectPath}?variant=preview`,
      image: { camera: 'Canon EOS R5', gps: { latitude: 51.5, longitude: -0.125 } },
    });
    const usage = (await (await get('/api/storage/usage', owner)).json()) as { usedBytes: number };
    expect(data?.viewer.storage).toMatchObject({ usedBytes: usage.usedBytes, quotaBytes: 10 * 1024 ** 3 });
    expect(usage.usedBytes).toBeGreaterThanOrEqual(result.size);
  });
});
