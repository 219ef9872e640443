import { describe, expect, it } from 'vitest';
import { finishedUpload } from '../../test/fixtures.ts';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { signedInUser } from '../../test/harness.ts';
import { makeGallery } from '../galleries/testing.ts';
import { appWithOwnerAndStranger, newFolder, send, uploadFile } from './testing.ts';

// File records over REST: uploads filed, listed, changed and deleted, their versions, uploads at
// the same moment, and the upload notice. Folders are folders.test.ts, search search.test.ts.

let app: TestApp, owner: User, stranger: User;
const db = () => app.database.prisma;
appWithOwnerAndStranger((...started) => ([app, owner, stranger] = started));

describe('file records', () => {
  it('records an upload with the size, checksum and type the server saw, and notes the activity', async () => {
    const upload = await finishedUpload(app, owner.id, {
      size: 4321,
      mimeType: 'image/png',
      metadata: { image: { width: 40, height: 30 } },
    });
    const created = await send(app, owner.cookie, 'POST', '/api/files', {
      name: 'location.png',
      originalName: 'IMG_1.PNG',
      mimeType: 'application/octet-stream',
      size: 1,
      objectUrl: upload.uploadURL,
      folderId: 'root',
      isPublic: false,
      tags: 'Exterior, , night ,exterior',
      metadata: { uploadedAt: '2026-11-23T10:00:00.000Z', image: { width: 1 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'location.png',
      originalName: 'IMG_1.PNG',
      mimeType: 'image/png',
      size: 4321,
      objectPath: upload.objectPath,
      folderId: null,
      isPublic: false,
      tags: ['exterior', 'night'],
      metadata: { uploadedAt: '2026-11-23T10:00:00.000Z', image: { width: 40, height: 30 } },
      version: 1,
    });
    const stored = await db().file.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(stored.checksum).toMatch(/^[0-9a-f]{64}$/);
    const activity = await db().activity.findFirst({ where: { resourceId: created.body.id } });
    expect(activity).toMatchObject({ action: 'file_uploaded', resourceType: 'file', metadata: { size: 4321 } });
    expect((await send(app, owner.cookie, 'GET', `/api/files/${created.body.id}`)).body.size).toBe(4321);
  });

  it('refuses bad payloads and uploads that are not the viewer’s', async () => {
    const noName = await send(app, owner.cookie, 'POST', '/api/files', { objectUrl: 'x' });
    expect(noName).toEqual({ status: 400, body: expect.objectContaining({ message: 'File name is required.' }) });
    const noUrl = await send(app, owner.cookie, 'POST', '/api/files', { name: 'a.jpg' });
    expect(noUrl.body.message).toBe('objectUrl is required.');
    const notOurs = await send(app, owner.cookie, 'POST', '/api/files', {
      name: 'a.jpg',
      objectUrl: 'https://evil.example/x',
    });
    expect(notOurs).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'objectUrl is not an upload URL of yours.' }),
    });
    const theirs = await finishedUpload(app, stranger.id);
    const stolen = await send(app, owner.cookie, 'POST', '/api/files', { name: 'a.jpg', objectUrl: theirs.uploadURL });
    expect(stolen).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'objectUrl is not an upload URL of yours.' }),
    });
    const mine = await finishedUpload(app, owner.id);
    const wrongTags = await send(app, owner.cookie, 'POST', '/api/files', {
      name: 'a.jpg',
      objectUrl: mine.uploadURL,
      tags: 5,
    });
    expect(wrongTags.status).toBe(400);
    const strangerFolder = await newFolder(app, stranger.cookie, 'Not yours');
    const intoTheirs = await send(app, owner.cookie, 'POST', '/api/files', {
      name: 'a.jpg',
      objectUrl: mine.uploadURL,
      folderId: strangerFolder.id,
    });
    expect(intoTheirs.status).toBe(404);
    // None of the refusals used the upload up.
    await uploadFile(app, owner, { name: 'claim-once.jpg' });
    const once = await send(app, owner.cookie, 'POST', '/api/files', { name: 'ok.jpg', objectUrl: mine.uploadURL });
    expect(once.status).toBe(201);
    const twice = await send(app, owner.cookie, 'POST', '/api/files', { name: 'again.jpg', objectUrl: mine.uploadURL });
    expect(twice.body.message).toBe('This upload already belongs to a file.');
  });

  it('lists a folder’s files in the spec’s sort orders, the top level by default', async () => {
    const folder = await newFolder(app, owner.cookie, 'Sorted');
    await uploadFile(app, owner, { name: 'b-medium.mp4', folderId: folder.id }, { size: 5000, mimeType: 'video/mp4' });
    await uploadFile(app, owner, { name: 'c-small.jpg', folderId: folder.id }, { size: 10 });
    await uploadFile(
      app,
      owner,
      { name: 'a-large.pdf', folderId: folder.id },
      { size: 90_000, mimeType: 'application/pdf' },
    );
    const names = async (sort?: string) => {
      const query = sort ? `&sort=${sort}` : '';
      const { body } = await send(app, owner.cookie, 'GET', `/api/files?folderId=${folder.id}${query}`);
      return body.map((f: { name: string }) => f.name);
    };
    expect(await names()).toEqual(['a-large.pdf', 'c-small.jpg', 'b-medium.mp4']);
    expect(await names('size')).toEqual(['a-large.pdf', 'b-medium.mp4', 'c-small.jpg']);
    expect(await names('name')).toEqual(['a-large.pdf', 'b-medium.mp4', 'c-small.jpg']);
    expect(await names('type')).toEqual(['a-large.pdf', 'c-small.jpg', 'b-medium.mp4']);
    const bad = await send(app, owner.cookie, 'GET', `/api/files?folderId=${folder.id}&sort=colour`);
    expect(bad).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'sort must be one of recent, name, size, type.' }),
    });

    const root = await send(app, owner.cookie, 'GET', '/api/files');
    expect(root.body.every((f: { folderId: string | null }) => f.folderId === null)).toBe(true);
    expect(root.body.map((f: { name: string }) => f.name)).not.toContain('a-large.pdf');

    const recent = await send(app, owner.cookie, 'GET', '/api/files/recent?limit=2');
    expect(recent.body).toHaveLength(2);
    expect(recent.body[0].name).toBe('a-large.pdf');
    const badLimit = await send(app, owner.cookie, 'GET', '/api/files/recent?limit=0');
    expect(badLimit).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'limit must be a whole number from 1 to 100.' }),
    });
    expect(typeof recent.body[0].size).toBe('number');
  });

  it('merges metadata on PATCH, replaces tags, renames and moves', async () => {
    const file = await uploadFile(
      app,
      owner,
      { name: 'patch-me.jpg', metadata: { uploadedAt: 'then' } },
      {
        metadata: { image: { width: 10, height: 10 } },
      },
    );
    const patched = await send(app, owner.cookie, 'PATCH', `/api/files/${file.id}`, {
      tags: ['Warehouse', 'dusk'],
      metadata: { aiAnalysis: { tags: ['warehouse'] }, autoTagged: true, image: { width: 1 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.tags).toEqual(['warehouse', 'dusk']);
    expect(patched.body.metadata).toEqual({
      uploadedAt: 'then',
      image: { width: 10, height: 10 },
      aiAnalysis: { tags: ['warehouse'] },
      autoTagged: true,
    });
    const folder = await newFolder(app, owner.cookie, 'Patch target');
    const moved = await send(app, owner.cookie, 'PATCH', `/api/files/${file.id}`, {
      name: 'renamed.jpg',
      folderId: folder.id,
      isPublic: true,
    });
    expect(moved.body).toMatchObject({ name: 'renamed.jpg', folderId: folder.id, isPublic: true });
    expect(moved.body.metadata.autoTagged).toBe(true);

    await uploadFile(app, owner, { name: 'taken.jpg', folderId: folder.id });
    const clash = await send(app, owner.cookie, 'PATCH', `/api/files/${file.id}`, { name: 'taken.jpg' });
    expect(clash).toEqual({
      status: 409,
      body: expect.objectContaining({ message: 'A file named "taken.jpg" already exists in that folder.' }),
    });
    const badMeta = await send(app, owner.cookie, 'PATCH', `/api/files/${file.id}`, { metadata: 'nope' });
    expect(badMeta.body.message).toMatch(/metadata/);
    expect((await send(app, owner.cookie, 'PATCH', '/api/files/nope', { tags: [] })).status).toBe(404);
  });

  it('deletes a file with its versions, gallery places and cover, and releases every version’s bytes', async () => {
    const v1 = await uploadFile(app, owner, { name: 'doomed.jpg' }, { size: 700 });
    const v2 = await uploadFile(app, owner, { name: 'doomed.jpg', onConflict: 'replace' }, { size: 800 });
    expect(v2).toMatchObject({ id: v1.id, version: 2, size: 800 });
    const gallery = await makeGallery(app, owner.cookie, { name: 'Cover gallery' });
    await db().galleryItem.create({ data: { galleryId: gallery.id, fileId: v1.id, position: 0, addedById: owner.id } });
    await db().gallery.update({ where: { id: gallery.id }, data: { coverImageId: v1.id } });

    const deleted = await send(app, owner.cookie, 'DELETE', `/api/files/${v1.id}`);
    expect(deleted).toEqual({ status: 200, body: { success: true, id: v1.id } });
    expect(await db().fileVersion.count({ where: { fileId: v1.id } })).toBe(0);
    expect(await db().galleryItem.count({ where: { fileId: v1.id } })).toBe(0);
    expect((await db().gallery.findUniqueOrThrow({ where: { id: gallery.id } })).coverImageId).toBeNull();
    const ids = [v1.objectPath, v2.objectPath].map((p) => p.split('/').pop()!);
    const uploads = await db().upload.findMany({ where: { id: { in: ids } } });
    expect(uploads.map((u) => u.status)).toEqual(['released', 'released']);
    const activity = await db().activity.findFirst({ where: { resourceId: v1.id, action: 'file_deleted' } });
    expect(activity?.metadata).toEqual({ size: 800 });
    expect((await send(app, owner.cookie, 'DELETE', `/api/files/${v1.id}`)).status).toBe(404);
  });
});

describe('versions', () => {
  it('makes a same-named upload a new version and restores an earlier one, keeping history', async () => {
    const folder = await newFolder(app, owner.cookie, 'Versions');
    const first = await uploadFile(
      app,
      owner,
      { name: 'plan.pdf', folderId: folder.id, tags: ['plan'] },
      { size: 100 },
    );
    const second = await uploadFile(
      app,
      owner,
      { name: 'plan.pdf', folderId: folder.id, tags: ['final'], onConflict: 'replace' },
      { size: 250 },
    );
    expect(second).toMatchObject({ id: first.id, version: 2, size: 250, tags: ['plan', 'final'] });
    // Same name elsewhere is another file.
    const elsewhere = await uploadFile(app, owner, { name: 'plan.pdf' }, { size: 5 });
    expect(elsewhere.id).not.toBe(first.id);
    const listed = await send(app, owner.cookie, 'GET', `/api/files?folderId=${folder.id}`);
    expect(listed.body).toHaveLength(1);

    const versions = await send(app, owner.cookie, 'GET', `/api/files/${first.id}/versions`);
    expect(
      versions.body.map((v: { version: number; size: number; isCurrent: boolean }) => [v.version, v.size, v.isCurrent]),
    ).toEqual([
      [2, 250, true],
      [1, 100, false],
    ]);

    const restored = await send(app, owner.cookie, 'POST', `/api/files/${first.id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: first.id, size: 100, objectPath: first.objectPath, version: 3 });
    const after = await send(app, owner.cookie, 'GET', `/api/files/${first.id}/versions`);
    expect(after.body.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);

    const again = await send(app, owner.cookie, 'POST', `/api/files/${first.id}/versions/3/restore`);
    expect(again).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'Version 3 is already the current version.' }),
    });
    expect((await send(app, owner.cookie, 'POST', `/api/files/${first.id}/versions/9/restore`)).status).toBe(404);
    expect((await send(app, owner.cookie, 'POST', `/api/files/${first.id}/versions/abc/restore`)).status).toBe(400);

    // Deleting releases both byte sets, each once.
    await send(app, owner.cookie, 'DELETE', `/api/files/${first.id}`);
    const uploads = await db().upload.findMany({
      where: { id: { in: [first.objectPath, second.objectPath].map((p) => p.split('/').pop()!) } },
    });
    expect(uploads.every((u) => u.status === 'released')).toBe(true);
  });
});

describe('concurrent uploads', () => {
  it('turns simultaneous uploads of one name into versions of one file, and counts them in one notice', async () => {
    const uploader = await signedInUser(app);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        uploadFile(app, uploader, { name: 'burst.jpg', onConflict: 'replace' }, { size: n * 100 }),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.map((r) => r.version).sort()).toEqual([1, 2, 3, 4, 5]);
    await Promise.all(['x.jpg', 'y.jpg', 'z.jpg'].map((name) => uploadFile(app, uploader, { name })));
    const notices = await db().notification.findMany({ where: { userId: uploader.id } });
    expect(notices.map((n) => n.message)).toEqual(['8 files finished uploading.']);
  });

  it('lets a restore, a new version and a delete of one file take turns', async () => {
    const first = await uploadFile(app, owner, { name: 'contested.jpg' }, { size: 10 });
    await uploadFile(app, owner, { name: 'contested.jpg', onConflict: 'replace' }, { size: 20 });
    const [restored, uploaded] = await Promise.all([
      send(app, owner.cookie, 'POST', `/api/files/${first.id}/versions/1/restore`),
      uploadFile(app, owner, { name: 'contested.jpg', onConflict: 'replace' }, { size: 30 }),
    ]);
    expect(restored.status).toBe(200);
    expect(uploaded.id).toBe(first.id);
    const versions = await db().fileVersion.findMany({ where: { fileId: first.id }, orderBy: { version: 'asc' } });
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4]);

    const upload = await finishedUpload(app, owner.id);
    const [deleted, late] = await Promise.all([
      send(app, owner.cookie, 'DELETE', `/api/files/${first.id}`),
      send(app, owner.cookie, 'POST', '/api/files', {
        name: 'contested.jpg',
        objectUrl: upload.uploadURL,
        onConflict: 'replace',
      }),
    ]);
    expect(deleted.status).toBe(200);
    expect(late.status).toBe(201);
    // Whichever came second, nothing is left half done: either a fresh file or none at all remains.
    const left = await db().file.findMany({ where: { ownerId: owner.id, name: 'contested.jpg' } });
    expect(left.length).toBeLessThanOrEqual(1);
    if (left[0]) expect(await db().fileVersion.count({ where: { fileId: left[0].id } })).toBeGreaterThan(0);
  });
});

describe('upload notifications', () => {
  it('tells the uploader once per batch: one unread notice that counts the files', async () => {
    const uploader = await signedInUser(app);
    await uploadFile(app, uploader, { name: 'one.jpg' });
    let notices = await db().notification.findMany({ where: { userId: uploader.id } });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      type: 'file',
      title: 'Upload complete',
      message: 'one.jpg finished uploading.',
    });
    await uploadFile(app, uploader, { name: 'two.jpg' });
    await uploadFile(app, uploader, { name: 'three.jpg' });
    notices = await db().notification.findMany({ where: { userId: uploader.id } });
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toBe('3 files finished uploading.');

    // Each upload tells the uploader's live subscriptions, naming the (one) notice.
    const iterator = app.services.events.subscribe('notification:added', uploader.id)[Symbol.asyncIterator]();
    const next = iterator.next();
    await uploadFile(app, uploader, { name: 'live.jpg' });
    expect((await next).value).toEqual({ notificationId: notices[0]?.id });
    await iterator.return?.();

    // Once read, the next upload starts a new notice.
    await db().notification.updateMany({ where: { userId: uploader.id }, data: { isRead: true } });
    await uploadFile(app, uploader, { name: 'four.jpg' });
    notices = await db().notification.findMany({ where: { userId: uploader.id, isRead: false } });
    expect(notices.map((n) => n.message)).toEqual(['four.jpg finished uploading.']);
  });
});
