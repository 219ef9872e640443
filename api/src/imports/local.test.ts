import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser as User, signedInUser, testApp, type TestApp, sendBody } from '../../test/harness.ts';
import type { ImportProgress } from '../infra/events/pubsub.ts';
import { call, finished, jpeg } from './testing.ts';
import { listeningOverSse } from '../../test/sse.ts';
import { processed } from '../storage/testing.ts';

let app: TestApp;
let owner: User;
let stranger: User;
let importDir: string;
let outside: string;
let photo: Buffer;

beforeAll(async () => {
  const base = await mkdtemp(path.join(tmpdir(), 'scoutbase-import-'));
  importDir = path.join(base, 'drop');
  outside = path.join(base, 'secret');
  await mkdir(path.join(importDir, 'scouting', 'roof'), { recursive: true });
  await mkdir(outside);
  photo = await jpeg('#a03020');
  await writeFile(path.join(importDir, 'scouting', 'warehouse.jpg'), photo);
  await writeFile(path.join(importDir, 'scouting', 'roof', 'Roof Access.png'), await sharpPng());
  await writeFile(path.join(importDir, 'call-sheet.txt'), 'Call sheet, day two: unit call 06:30.\n');
  await writeFile(path.join(importDir, 'setup.exe'), Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0]));
  await writeFile(path.join(importDir, '.env'), 'SECRET=1\n');
  await writeFile(path.join(outside, 'passwords.txt'), 'hunter2\n');
  await symlink(path.join(outside, 'passwords.txt'), path.join(importDir, 'passwords.txt'));
  await symlink(outside, path.join(importDir, 'elsewhere'));
  await symlink(path.join(importDir, 'call-sheet.txt'), path.join(importDir, 'sheet-link.txt'));
  app = await testApp({ IMPORT_DIR: importDir });
  owner = await signedInUser(app);
  stranger = await signedInUser(app);
});
afterAll(async () => {
  await app.close();
  await rm(path.dirname(importDir), { recursive: true, force: true });
});

async function sharpPng() {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#224488' } })
    .png()
    .toBuffer();
}

describe('GET /api/imports/sources', () => {
  it('offers the server folder as always connected, and the OAuth sources as not set up here', async () => {
    const { status, body } = await call(app, owner.cookie, 'GET', '/api/imports/sources');
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: 'local', name: 'Server folder', available: true, connected: true, account: null },
      { id: 'google-drive', name: 'Google Drive', available: false, connected: false, account: null },
      { id: 'dropbox', name: 'Dropbox', available: false, connected: false, account: null },
    ]);
  });
});

describe('GET /api/imports/local/items', () => {
  it('lists the top level: folders first, no dot files, no links that lead outside', async () => {
    const { status, body } = await call(app, owner.cookie, 'GET', '/api/imports/local/items');
    expect(status).toBe(200);
    expect(body.map((i: { name: string; type: string }) => [i.name, i.type])).toEqual([
      ['scouting', 'folder'],
      ['call-sheet.txt', 'file'],
      ['setup.exe', 'file'],
      ['sheet-link.txt', 'file'],
    ]);
    const sheet = body.find((i: { name: string }) => i.name === 'call-sheet.txt');
    expect(sheet).toMatchObject({ id: 'call-sheet.txt', size: 38 });
    expect(sheet.modifiedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('opens a folder and gives pictures a thumbnail that renders', async () => {
    const { body } = await call(app, owner.cookie, 'GET', '/api/imports/local/items?folder=scouting');
    expect(body.map((i: { id: string }) => i.id)).toEqual(['scouting/roof', 'scouting/warehouse.jpg']);
    const picture = body[1];
    expect(picture).toMatchObject({ type: 'image', size: photo.length });
    const thumb = await app.request(picture.thumbnail, { cookie: owner.cookie });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect((await thumb.arrayBuffer()).byteLength).toBeGreaterThan(50);
  });

  it('searches by name under the folder, case-insensitively, and answers [] when nothing matches', async () => {
    const found = await call(app, owner.cookie, 'GET', '/api/imports/local/items?search=roof%20ACC');
    expect(found.body.map((i: { id: string }) => i.id)).toEqual(['scouting/roof/Roof Access.png']);
    const none = await call(app, owner.cookie, 'GET', '/api/imports/local/items?search=zeppelin');
    expect(none).toMatchObject({ status: 200, body: [] });
    // A search never reaches dot files or what links lead to outside.
    const hidden = await call(app, owner.cookie, 'GET', '/api/imports/local/items?search=passwords');
    expect(hidden.body).toEqual([]);
  });

  it.each(['..', '../secret', 'scouting/../../secret', '/etc', 'elsewhere', '.git', 'scouting\\..\\..'])(
    'refuses to open %s (nothing outside the folder can be named)',
    async (folder) => {
      const { status, body } = await call(
        app,
        owner.cookie,
        'GET',
        `/api/imports/local/items?folder=${encodeURIComponent(folder)}`,
      );
      expect(status).toBe(404);
      expect(JSON.stringify(body)).not.toContain('hunter2');
    },
  );

  it('refuses thumbnails outside the folder', async () => {
    for (const id of ['../secret/passwords.txt', 'passwords.txt', '%2e%2e/secret/passwords.txt']) {
      const response = await app.request(`/api/imports/local/thumbnail?id=${encodeURIComponent(id)}`, {
        cookie: owner.cookie,
      });
      expect(response.status).toBe(404);
    }
  });

  it('answers 401 when signed out', async () => {
    expect((await app.request('/api/imports/local/items')).status).toBe(401);
  });
});

describe('POST /api/imports from the server folder', () => {
  it('imports the chosen files into the file manager with progress; a bad file does not stop the job', async () => {
    const events: ImportProgress[] = [];
    const subscription = app.services.events.subscribe('import:progress', owner.id);
    const collecting = (async () => {
      for await (const event of subscription) {
        events.push(event as ImportProgress);
        if ((event as ImportProgress).status !== 'running') break;
      }
    })();
    const folder = await call(app, owner.cookie, 'POST', '/api/folders', { name: 'Warehouse scout' });
    const started = await call(app, owner.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['scouting/warehouse.jpg', 'setup.exe', 'call-sheet.txt'],
      folderId: folder.body.id,
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'running', total: 3, done: 0, failed: [] });

    const job = await finished(app, owner.cookie, started.body.id);
    expect(job).toMatchObject({ status: 'completed', total: 3, done: 3, imported: 2 });
    expect(job.failed).toEqual([{ name: 'setup.exe', message: expect.stringMatching(/^File type must be one of /) }]);

    const files = await app.database.prisma.file.findMany({
      where: { ownerId: owner.id, folderId: folder.body.id },
      orderBy: { name: 'asc' },
    });
    expect(files.map((f) => [f.name, f.mimeType, Number(f.size)])).toEqual([
      ['call-sheet.txt', 'text/plain', 38],
      ['warehouse.jpg', 'image/jpeg', photo.length],
    ]);
    let picture = files[1];
    expect(picture?.checksum).toBe(createHash('sha256').update(photo).digest('hex'));
    // Its thumbnails and EXIF facts come from the upload's processing job, as for any upload.
    await processed(app, picture?.objectPath as string);
    picture = await app.database.prisma.file.findUniqueOrThrow({ where: { id: picture?.id } });
    expect(picture?.metadata).toMatchObject({
      importedFrom: { source: 'local', itemId: 'scouting/warehouse.jpg', importId: started.body.id },
      image: { width: 320, height: 200 },
      thumbnails: { grid: true, preview: true },
    });
    expect(job.fileIds.sort()).toEqual(files.map((f) => f.id).sort());

    // The bytes are served like any upload's, to their owner only.
    const served = await app.request(picture?.objectPath as string, { cookie: owner.cookie });
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
    expect((await app.request(picture?.objectPath as string, { cookie: stranger.cookie })).status).toBe(404);

    await collecting;
    expect(events.map((e) => [e.status, e.done, e.total])).toEqual([
      ['running', 1, 3],
      ['running', 2, 3],
      ['running', 3, 3],
      ['completed', 3, 3],
    ]);
    expect(events.at(-1)?.jobId).toBe(started.body.id);
  });

  it('follows a link inside the folder and imports into a gallery at the top level', async () => {
    const gallery = await call(app, owner.cookie, 'POST', '/api/galleries', { name: 'Day two' });
    expect(gallery.status).toBe(201);
    const started = await call(app, owner.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['scouting/roof/Roof Access.png', 'sheet-link.txt'],
      galleryId: gallery.body.id,
    });
    expect(started.status).toBe(202);
    const job = await finished(app, owner.cookie, started.body.id);
    expect(job).toMatchObject({ status: 'completed', done: 2, imported: 2, failed: [] });
    const items = await app.database.prisma.galleryItem.findMany({
      where: { galleryId: gallery.body.id },
      include: { file: true },
      orderBy: { position: 'asc' },
    });
    // Both are imported at the top level; only the photo joins the gallery (photos and videos only).
    expect(items.map((i) => [i.file.name, i.file.folderId])).toEqual([['Roof Access.png', null]]);
    const sheet = await app.database.prisma.file.findFirst({
      where: { ownerId: owner.id, originalName: 'call-sheet.txt' },
      orderBy: { createdAt: 'desc' },
    });
    expect(sheet?.folderId).toBeNull();
  });

  it('marks a job failed when no file could be imported', async () => {
    const started = await call(app, owner.cookie, 'POST', '/api/imports', { source: 'local', itemIds: ['setup.exe'] });
    const job = await finished(app, owner.cookie, started.body.id);
    expect(job).toMatchObject({ status: 'failed', done: 1, imported: 0 });
  });

  it.each([
    [{ source: 'local', itemIds: ['scouting'] }, 400, /is a folder\. Folders cannot be imported/],
    [{ source: 'local', itemIds: [] }, 400, /^Choose at least one file to import\.$/],
    [{ source: 'local' }, 400, /itemIds/],
    [{ source: 'local', itemIds: ['../secret/passwords.txt'] }, 404, /^Import item not found$/],
    [{ source: 'local', itemIds: ['passwords.txt'] }, 404, /^Import item not found$/],
    [{ source: 'local', itemIds: ['/etc/passwd'] }, 404, /^Import item not found$/],
    [{ source: 'ftp', itemIds: ['a'] }, 404, /^Import source not found$/],
    [{ source: 'google-drive', itemIds: ['a'] }, 404, /^Import source not found$/],
    [{ source: 'local', itemIds: ['call-sheet.txt'], folderId: 'nope' }, 404, /^Folder not found$/],
    [{ source: 'local', itemIds: ['call-sheet.txt'], galleryId: 'nope' }, 404, /^Gallery not found$/],
  ])('refuses %j before copying anything', async (body, status, message) => {
    const before = await app.database.prisma.importJob.count();
    const response = await call(app, owner.cookie, 'POST', '/api/imports', body);
    expect(response.status).toBe(status);
    expect(response.body.message).toMatch(message);
    expect(await app.database.prisma.importJob.count()).toBe(before);
  });

  it('refuses malformed JSON with a 400', async () => {
    const response = await call(app, owner.cookie, 'POST', '/api/imports', '{"source": ');
    expect(response).toMatchObject({ status: 400, body: { message: 'The request body is not valid JSON.' } });
  });

  it('keeps jobs to their owner: a stranger cannot read one, nor import into the owner’s folder or gallery', async () => {
    const started = await call(app, owner.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['call-sheet.txt'],
    });
    await finished(app, owner.cookie, started.body.id);
    expect((await call(app, stranger.cookie, 'GET', `/api/imports/${started.body.id}`)).status).toBe(404);
    expect((await call(app, stranger.cookie, 'GET', '/api/imports/not-a-uuid')).status).toBe(404);

    const folder = await call(app, owner.cookie, 'POST', '/api/folders', { name: 'Private' });
    const gallery = await call(app, owner.cookie, 'POST', '/api/galleries', { name: 'Private gallery' });
    for (const target of [{ folderId: folder.body.id }, { galleryId: gallery.body.id }]) {
      const refused = await call(app, stranger.cookie, 'POST', '/api/imports', {
        source: 'local',
        itemIds: ['call-sheet.txt'],
        ...target,
      });
      expect(refused.status).toBe(404);
    }
    expect(await app.database.prisma.file.count({ where: { ownerId: stranger.id } })).toBe(0);
  });
});

describe('the server folder turned off', () => {
  it('is offered as unavailable and cannot be listed', async () => {
    const off = await testApp({ IMPORT_DIR: 'off' });
    try {
      const user = await signedInUser(off);
      const sources = await call(off, user.cookie, 'GET', '/api/imports/sources');
      expect(sources.body[0]).toMatchObject({ id: 'local', available: false, connected: false });
      expect((await call(off, user.cookie, 'GET', '/api/imports/local/items')).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('limits and live progress', () => {
  it('ends a job that lost its server (no progress for 15 minutes) instead of leaving it running', async () => {
    const job = await app.database.prisma.importJob.create({
      data: {
        userId: owner.id,
        source: 'local',
        total: 2,
        done: 1,
        items: [],
        fileIds: [],
        failed: [{ name: 'a.txt', message: 'File is empty.' }],
      },
    });
    await app.database.prisma
      .$executeRaw`UPDATE "ImportJob" SET "updatedAt" = now() - interval '16 minutes' WHERE id = ${job.id}::uuid`;
    const { body } = await call(app, owner.cookie, 'GET', `/api/imports/${job.id}`);
    expect(body).toMatchObject({ status: 'failed', done: 1, total: 2 });
    expect(body.failed.at(-1).message).toMatch(/^The import stopped before it finished/);
    const fresh = await app.database.prisma.importJob.create({
      data: { userId: owner.id, source: 'local', total: 1, items: [], fileIds: [] },
    });
    expect((await call(app, owner.cookie, 'GET', `/api/imports/${fresh.id}`)).body.status).toBe('running');
  });

  it('lets one person run three imports at once, and asks the fourth to wait', async () => {
    const user = await signedInUser(app);
    await app.database.prisma.importJob.createMany({
      data: [1, 2, 3].map(() => ({ userId: user.id, source: 'local', total: 1, items: [], fileIds: [] })),
    });
    const response = await sendBody(app, user.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['call-sheet.txt'],
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(((await response.json()) as { message: string }).message).toBe(
      'You already have 3 imports running. Wait for one to finish, then try again.',
    );
    // Someone else is not held up by it.
    const other = await call(app, owner.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['call-sheet.txt'],
    });
    expect(other.status).toBe(202);
    await finished(app, owner.cookie, other.body.id);
  });

  it('applies the upload size limit to imported files, one file at a time', async () => {
    const small = await testApp({ IMPORT_DIR: importDir, MAX_UPLOAD_SIZE: '100' });
    try {
      const user = await signedInUser(small);
      const started = await call(small, user.cookie, 'POST', '/api/imports', {
        source: 'local',
        itemIds: ['scouting/warehouse.jpg', 'call-sheet.txt'],
      });
      const job = await finished(small, user.cookie, started.body.id);
      expect(job).toMatchObject({ status: 'completed', done: 2, imported: 1 });
      expect(job.failed).toEqual([
        { name: 'warehouse.jpg', message: 'File is larger than 100 bytes (the limit is 100 Bytes).' },
      ]);
      // Nothing of the refused file is held against the person's storage.
      const usage = await call(small, user.cookie, 'GET', '/api/storage/usage');
      expect(usage.body.usedBytes).toBe(38);
    } finally {
      await small.close();
    }
  });

  it('streams the progress of the subscriber’s own imports over GraphQL (SSE)', async () => {
    const stream = await listeningOverSse(
      app,
      owner.cookie,
      'subscription { importProgress { jobId status total done failed { name } } }',
    );
    const theirs = await call(app, stranger.cookie, 'POST', '/api/imports', {
      source: 'local',
      itemIds: ['setup.exe'],
    });
    await finished(app, stranger.cookie, theirs.body.id);
    const mine = await call(app, owner.cookie, 'POST', '/api/imports', { source: 'local', itemIds: ['setup.exe'] });

    const events = await stream.until((heard) => heard.length >= 2);
    await stream.close();
    const progress = { jobId: mine.body.id, total: 1, done: 1, failed: [{ name: 'setup.exe' }] };
    expect(events).toEqual([
      { data: { importProgress: { ...progress, status: 'running' } } },
      { data: { importProgress: { ...progress, status: 'failed' } } },
    ]);
  });
});
