import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedUpload } from '../../test/fixtures.ts';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, signedInUser } from '../../test/harness.ts';
import { makeGallery, shareWith } from '../galleries/testing.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { searchSql } from './search.ts';
import { newFolder, send, uploadFile } from './testing.ts';

let app: TestApp, owner: User, stranger: User;
const db = () => app.database.prisma;

beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

describe('folders', () => {
  it('creates folders at the top level and inside others, and lists them by parent', async () => {
    const top = await newFolder(app, owner.cookie, '  Scouting  ');
    expect(top).toMatchObject({ name: 'Scouting', parentId: null });
    const child = await newFolder(app, owner.cookie, 'Docks', top.id);
    expect(child.parentId).toBe(top.id);

    const root = await send(app, owner.cookie, 'GET', '/api/folders');
    expect(root.status).toBe(200);
    expect(root.body.map((f: { name: string }) => f.name)).toContain('Scouting');
    expect(root.body.map((f: { name: string }) => f.name)).not.toContain('Docks');
    const inside = await send(app, owner.cookie, 'GET', `/api/folders?parentId=${top.id}`);
    expect(inside.body.map((f: { id: string }) => f.id)).toEqual([child.id]);
    expect((await send(app, owner.cookie, 'GET', '/api/folders?parentId=root')).body).toEqual(root.body);

    const grandchild = await newFolder(app, owner.cookie, 'Pier 4', child.id);
    await uploadFile(app, owner, { name: 'pier.jpg', folderId: child.id });
    const detail = await send(app, owner.cookie, 'GET', `/api/folders/${grandchild.id}`);
    expect(detail.body).toMatchObject({ id: grandchild.id, name: 'Pier 4', fileCount: 0, folderCount: 0 });
    expect(detail.body.path.map((f: { name: string }) => f.name)).toEqual(['Scouting', 'Docks']);
    const counted = await send(app, owner.cookie, 'GET', `/api/folders?parentId=${top.id}`);
    expect(counted.body[0]).toMatchObject({ name: 'Docks', fileCount: 1, folderCount: 1 });

    const activity = await db().activity.findFirst({ where: { resourceId: top.id } });
    expect(activity).toMatchObject({ action: 'folder_created', resourceType: 'folder', resourceName: 'Scouting' });
  });

  it('validates names and refuses bad input with a message', async () => {
    const empty = await send(app, owner.cookie, 'POST', '/api/folders', { name: '   ' });
    expect(empty).toEqual({ status: 400, body: expect.objectContaining({ message: 'Folder name is required.' }) });
    const missing = await send(app, owner.cookie, 'POST', '/api/folders', {});
    expect(missing.body.message).toBe('Folder name is required.');
    const slash = await send(app, owner.cookie, 'POST', '/api/folders', { name: 'a/b' });
    expect(slash.body.message).toBe('Folder names cannot contain / or \\.');
    const unknownField = await send(app, owner.cookie, 'POST', '/api/folders', { name: 'Ok', color: 'red' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.message).toMatch(/color/);
    const badJson = await send(app, owner.cookie, 'POST', '/api/folders', '{"name":');
    expect(badJson).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'The request body is not valid JSON.' }),
    });
    const badParent = await send(app, owner.cookie, 'POST', '/api/folders', { name: 'Orphan', parentId: 'not-a-uuid' });
    expect(badParent).toEqual({ status: 404, body: expect.objectContaining({ message: 'Folder not found' }) });
    const wrongType = await send(app, owner.cookie, 'POST', '/api/folders', { name: 42 });
    expect(wrongType.status).toBe(400);
  });

  it('keeps names unique among siblings, whatever the case, but allows them in other folders', async () => {
    const parent = await newFolder(app, owner.cookie, 'Unique parent');
    await newFolder(app, owner.cookie, 'Exteriors', parent.id);
    const twin = await send(app, owner.cookie, 'POST', '/api/folders', { name: 'EXTERIORS', parentId: parent.id });
    expect(twin).toEqual({
      status: 409,
      body: expect.objectContaining({ message: 'A folder named "EXTERIORS" already exists in this folder.' }),
    });
    const elsewhere = await send(app, owner.cookie, 'POST', '/api/folders', { name: 'Exteriors' });
    expect(elsewhere.status).toBe(201);
    // Another person's folders do not count.
    expect((await send(app, stranger.cookie, 'POST', '/api/folders', { name: 'Exteriors' })).status).toBe(201);

    const other = await newFolder(app, owner.cookie, 'Interiors', parent.id);
    const rename = await send(app, owner.cookie, 'PATCH', `/api/folders/${other.id}`, { name: 'exteriors' });
    expect(rename.status).toBe(409);
    const move = await send(app, owner.cookie, 'PATCH', `/api/folders/${elsewhere.body.id}`, { parentId: parent.id });
    expect(move.status).toBe(409);
  });

  it('renames and moves folders, never into themselves or below themselves', async () => {
    const a = await newFolder(app, owner.cookie, 'Move A');
    const b = await newFolder(app, owner.cookie, 'Move B', a.id);
    const c = await newFolder(app, owner.cookie, 'Move C', b.id);
    const intoChild = await send(app, owner.cookie, 'PATCH', `/api/folders/${a.id}`, { parentId: c.id });
    expect(intoChild).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'A folder cannot be moved into itself or one of its subfolders.' }),
    });
    const intoItself = await send(app, owner.cookie, 'PATCH', `/api/folders/${a.id}`, { parentId: a.id });
    expect(intoItself.status).toBe(400);

    const moved = await send(app, owner.cookie, 'PATCH', `/api/folders/${c.id}`, { parentId: 'root', name: 'Moved C' });
    expect(moved.body).toMatchObject({ id: c.id, parentId: null, name: 'Moved C' });
    const back = await send(app, owner.cookie, 'PATCH', `/api/folders/${c.id}`, { parentId: a.id });
    expect(back.body.parentId).toBe(a.id);
    expect((await send(app, owner.cookie, 'GET', `/api/folders/${c.id}`)).body.name).toBe('Moved C');
  });

  it('refuses to delete a folder with content unless asked to delete everything in it', async () => {
    const top = await newFolder(app, owner.cookie, 'Delete me');
    const sub = await newFolder(app, owner.cookie, 'Sub', top.id);
    const deeper = await newFolder(app, owner.cookie, 'Deeper', sub.id);
    const first = await uploadFile(app, owner, { name: 'a.jpg', folderId: sub.id }, { size: 100 });
    await uploadFile(app, owner, { name: 'a.jpg', folderId: sub.id, onConflict: 'replace' }, { size: 200 }); // a second version
    const second = await uploadFile(app, owner, { name: 'b.jpg', folderId: deeper.id }, { size: 300 });
    const paths = [
      ...(await db().fileVersion.findMany({ where: { fileId: { in: [first.id, second.id] } } })).map(
        (v) => v.objectPath,
      ),
    ];
    expect(paths).toHaveLength(3);

    const refused = await send(app, owner.cookie, 'DELETE', `/api/folders/${top.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'The folder "Delete me" is not empty. Move or delete what is in it first, or delete it together with its contents.',
    );
    expect(await db().folder.count({ where: { id: top.id } })).toBe(1);
    expect((await send(app, owner.cookie, 'DELETE', `/api/folders/${top.id}?recursive=maybe`)).status).toBe(400);

    const deleted = await send(app, owner.cookie, 'DELETE', `/api/folders/${top.id}?recursive=true`);
    expect(deleted).toEqual({
      status: 200,
      body: { success: true, id: top.id, deletedFolders: 3, deletedFiles: 2 },
    });
    expect(await db().folder.count({ where: { id: { in: [top.id, sub.id, deeper.id] } } })).toBe(0);
    expect(await db().file.count({ where: { id: { in: [first.id, second.id] } } })).toBe(0);
    const uploads = await db().upload.findMany({ where: { id: { in: paths.map((p) => p.split('/').pop()!) } } });
    expect(uploads.map((u) => u.status)).toEqual(['released', 'released', 'released']);

    const empty = await newFolder(app, owner.cookie, 'Empty one');
    expect((await send(app, owner.cookie, 'DELETE', `/api/folders/${empty.id}`)).body).toMatchObject({
      success: true,
      deletedFolders: 1,
    });
  });
});

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

describe('search', () => {
  it('needs more than 2 characters', async () => {
    for (const q of ['', 'ab', '  ab  ']) {
      const res = await send(app, owner.cookie, 'GET', `/api/files/search?q=${encodeURIComponent(q)}`);
      expect(res).toEqual({
        status: 400,
        body: expect.objectContaining({ message: 'Search query must be longer than 2 characters.' }),
      });
    }
  });

  it('ranks an exact name above a prefix above a tag above a similar name', async () => {
    const searcher = await signedInUser(app);
    const similar = await uploadFile(app, searcher, { name: 'the old mill photos.jpg' });
    const tagged = await uploadFile(app, searcher, { name: 'IMG_4410.jpg', tags: ['mill'] });
    const prefix = await uploadFile(app, searcher, { name: 'mill-yard.jpg' });
    const exact = await uploadFile(app, searcher, { name: 'Mill' });
    await uploadFile(app, searcher, { name: 'unrelated.jpg', tags: ['harbour'] });
    const byOriginal = await uploadFile(app, searcher, { name: 'renamed.jpg', originalName: 'MILLSTONE.JPG' });
    const res = await send(app, searcher.cookie, 'GET', '/api/files/search?q=mill');
    expect(res.status).toBe(200);
    const ids = res.body.map((f: { id: string }) => f.id);
    expect(ids.slice(0, 3)).toEqual([exact.id, prefix.id, byOriginal.id]);
    expect(ids).toContain(tagged.id);
    expect(ids).toContain(similar.id);
    expect(ids.indexOf(tagged.id)).toBeLessThan(ids.indexOf(similar.id));
    expect(ids).toHaveLength(5);
    expect(typeof res.body[0].size).toBe('number');
    // The same JSON as the file's own record (the search reads the rows in its own statement),
    // with where it is.
    expect(res.body[0]).toEqual({
      ...(await send(app, searcher.cookie, 'GET', `/api/files/${exact.id}`)).body,
      folderPath: [],
    });
    // A misspelling still finds the file by trigram similarity.
    const typo = await uploadFile(app, searcher, { name: 'Warehouse.jpg' });
    const misspelt = await send(app, searcher.cookie, 'GET', '/api/files/search?q=warehose');
    expect(misspelt.body.map((f: { id: string }) => f.id)).toEqual([typo.id]);
    // Wildcards are text, not patterns.
    expect((await send(app, searcher.cookie, 'GET', '/api/files/search?q=%25%25%25')).body).toEqual([]);
  });

  it('finds only what the viewer may read: never a stranger’s private file, but files in a gallery shared with them', async () => {
    const sharer = await signedInUser(app);
    const member = await signedInUser(app);
    const outsider = await signedInUser(app);
    const inGallery = await uploadFile(app, sharer, { name: 'quayside-shared.jpg' });
    const privateOne = await uploadFile(app, sharer, { name: 'quayside-private.jpg' });
    const gallery = await makeGallery(app, sharer.cookie, { name: 'Quayside' });
    await db().galleryItem.create({
      data: { galleryId: gallery.id, fileId: inGallery.id, position: 0, addedById: sharer.id },
    });
    await shareWith(app, sharer, member, gallery.id);

    const ids = async (user: User) =>
      (await send(app, user.cookie, 'GET', '/api/files/search?q=quayside')).body.map((f: { id: string }) => f.id);
    expect(await ids(outsider)).toEqual([]);
    expect(await ids(member)).toEqual([inGallery.id]);
    expect((await ids(sharer)).sort()).toEqual([inGallery.id, privateOne.id].sort());
    expect((await send(app, member.cookie, 'GET', `/api/files/${inGallery.id}`)).status).toBe(200);
    expect((await send(app, member.cookie, 'GET', `/api/files/${privateOne.id}`)).status).toBe(404);
    // Reading is not writing.
    expect((await send(app, member.cookie, 'PATCH', `/api/files/${inGallery.id}`, { tags: ['x'] })).status).toBe(404);
  });

  it('is one statement the word, trigram and tags indexes can answer', async () => {
    const explain = (q: string) =>
      db().$transaction(async (tx) => {
        // With few rows a scan is cheapest; forbid it to see what the indexes can do.
        await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
        const plan = await tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${searchSql(owner.id, q)}`);
        return plan.map((row) => Object.values(row)[0]).join('\n');
      });
    // Words of letters: the older files holding them are read per word, newest first.
    const words = await explain('warehouse night');
    expect(words).toContain('Word_word_trgm_idx');
    expect(words).toContain('FileWord_word_createdAt_fileId_key');
    expect(words).toContain('File_name_trgm_idx'); // the typo tier
    expect(words).toContain('File_tags_idx');
    expect(words).toContain('File_ownerId_name_lower_idx');
    expect(words).toContain('File_createdAt_id_idx');
    expect(words).not.toMatch(/Seq Scan on "File"/);
    // A file name with separators: the trigram indexes.
    const name = await explain('warehouse_12.jpg');
    expect(name).toContain('File_name_trgm_idx');
    expect(name).toContain('File_originalName_trgm_idx');
    expect(name).toContain('FileWord_word_createdAt_fileId_key'); // when its longest run is rare
    expect(name).not.toMatch(/Seq Scan on "File"/);
  });

  it('keeps the word table in step with every write of a file, by the database itself', async () => {
    const user = await signedInUser(app);
    const wordsOf = async (fileId: string) =>
      (
        await db().$queryRaw<{ word: string; createdAt: Date }[]>(
          Prisma.sql`SELECT word, "createdAt" FROM "FileWord" WHERE "fileId" = ${fileId}::uuid ORDER BY word`,
        )
      ).map((r) => r.word);
    const file = await uploadFile(app, user, { name: 'Old Mill_race.JPG', originalName: 'IMG-0042.jpeg' });
    expect(await wordsOf(file.id)).toEqual(['0042', 'img', 'jpeg', 'jpg', 'mill', 'old', 'race']);
    // A tag edit leaves the words alone; a rename replaces the name's words.
    expect((await send(app, user.cookie, 'PATCH', `/api/files/${file.id}`, { tags: ['dusk'] })).status).toBe(200);
    expect(await wordsOf(file.id)).toEqual(['0042', 'img', 'jpeg', 'jpg', 'mill', 'old', 'race']);
    expect((await send(app, user.cookie, 'PATCH', `/api/files/${file.id}`, { name: 'Quay 7 café.png' })).status).toBe(
      200,
    );
    expect(await wordsOf(file.id)).toEqual(['0042', '7', 'café', 'img', 'jpeg', 'png', 'quay']);
    // The words carry the file's date, which orders the search's reads.
    const [row] = await db().$queryRaw<{ same: boolean }[]>(
      Prisma.sql`SELECT bool_and(w."createdAt" = f."createdAt") AS same FROM "FileWord" w JOIN "File" f ON f.id = w."fileId"
        WHERE f.id = ${file.id}::uuid`,
    );
    expect(row?.same).toBe(true);
    // The search finds it by a renamed word, and by part of one.
    const found = async (q: string) =>
      (await send(app, user.cookie, 'GET', `/api/files/search?q=${encodeURIComponent(q)}`)).body.map(
        (f: { id: string }) => f.id,
      );
    expect(await found('quay café')).toEqual([file.id]);
    expect(await found('uay')).toEqual([file.id]);
    expect(await found('old mill')).toEqual([]);
    expect((await send(app, user.cookie, 'DELETE', `/api/files/${file.id}`)).status).toBeLessThan(300);
    expect(await wordsOf(file.id)).toEqual([]);
    // A bulk write in one statement (as an import does), then the owner's account goes: the words
    // follow the rows the database writes and removes on its own.
    await db()
      .$executeRaw`INSERT INTO "File" (id, "ownerId", name, "originalName", "objectUrl", "objectPath", "updatedAt")
      SELECT gen_random_uuid(), ${user.id}::uuid, 'bulk_' || i || '.jpg', 'DSC_' || i || '.jpg', '/o/' || i, '/o/' || i, now()
      FROM generate_series(1, 3) i`;
    const agree = () =>
      db().$queryRaw<{ missing: bigint; extra: bigint }[]>(Prisma.sql`
        WITH expected AS (SELECT w AS word, f."createdAt", f.id AS "fileId" FROM "File" f,
                            unnest("scoutbase_file_words"(f.name, f."originalName")) AS w)
        SELECT (SELECT count(*) FROM (SELECT * FROM expected EXCEPT SELECT * FROM "FileWord") m) AS missing,
               (SELECT count(*) FROM (SELECT * FROM "FileWord" EXCEPT SELECT * FROM expected) e) AS extra`);
    expect(await agree()).toEqual([{ missing: 0n, extra: 0n }]);
    await db().$executeRaw`DELETE FROM "Upload" WHERE "userId" = ${user.id}::uuid`;
    await db().user.delete({ where: { id: user.id } });
    expect(await agree()).toEqual([{ missing: 0n, extra: 0n }]);
  });

  it('answers the same page whether the matches are among the newest files or older ones', async () => {
    // The statement reads the newest files in order and asks the indexes for older ones; a window
    // of one file sends nearly every match down the second way.
    const searcher = await signedInUser(app);
    for (const [name, tags] of [
      ['Mill', []],
      ['mill-yard.jpg', []],
      ['IMG_4410.jpg', ['mill']],
      ['IMG_4411.jpg', ['mill']],
      ['the old mill photos.jpg', []],
      ['Old Mill race.jpg', []],
      ['Millstone.jpg', ['mill']],
      ['Mil.jpg', []],
      ['Warehouse.jpg', []],
      ['Warehouse night.jpg', ['night']],
    ] as const)
      await uploadFile(app, searcher, { name, tags: [...tags] });
    await uploadFile(app, owner, { name: 'mill-private.jpg', tags: ['mill'] });
    const page = async (q: string, options: { limit?: number; offset?: number; window?: number; rareRun?: number }) =>
      (await db().$queryRaw<{ id: string }[]>(searchSql(searcher.id, q, options))).map((r) => r.id);
    const privateOne = await uploadFile(app, owner, { name: 'old mill private.jpg', tags: ['night'] });
    for (const q of ['mill', 'warehose', 'night', 'old mill', 'ill', 'mill yard', 'mill-yard', 'IMG 44', 'img_441']) {
      const whole = await page(q, {});
      expect(whole.length).toBeGreaterThan(0);
      expect(whole).not.toContain(privateOne.id);
      for (const window of [1, 2, 3])
        for (const [limit, offset] of [
          [50, 0],
          [2, 0],
          [2, 2],
          [3, 1],
        ] as const)
          expect(await page(q, { limit, offset, window }), `${q} window ${window} page ${limit}+${offset}`).toEqual(
            whole.slice(offset, offset + limit),
          );
      // A name with separators is found from the word table when its longest run is rare, from
      // the trigram indexes when it is not: the same page either way.
      for (const rareRun of [0, 1, 1000])
        expect(await page(q, { window: 1, rareRun }), `${q} rare below ${rareRun}`).toEqual(whole);
    }
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

  it('never lets two crossing folder moves make a loop', async () => {
    const a = await newFolder(app, owner.cookie, 'Cross A');
    const b = await newFolder(app, owner.cookie, 'Cross B');
    const [ab, ba] = await Promise.all([
      send(app, owner.cookie, 'PATCH', `/api/folders/${a.id}`, { parentId: b.id }),
      send(app, owner.cookie, 'PATCH', `/api/folders/${b.id}`, { parentId: a.id }),
    ]);
    expect([ab.status, ba.status].sort()).toEqual([200, 400]);
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
