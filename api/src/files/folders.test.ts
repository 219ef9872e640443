import { describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { appWithOwnerAndStranger, newFolder, send, uploadFile } from './testing.ts';

// Folders over REST: made, listed, renamed, moved and deleted.

let app: TestApp, owner: User, stranger: User;
const db = () => app.database.prisma;
appWithOwnerAndStranger((...started) => ([app, owner, stranger] = started));

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

describe('concurrent folder moves', () => {
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
