import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql } from '../../test/harness.ts';
import { unzipText } from '../../test/zip.ts';
import { makeGallery } from '../galleries/testing.ts';
import { fileRecord, uploaded } from '../storage/testing.ts';
import { newFolder, send, uploadFile } from './testing.ts';

// Moving, deleting and downloading several files at once (the file manager's selection).

let app: TestApp, owner: User, stranger: User;
const db = () => app.database.prisma;

beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

/** A file with real bytes in the store. */
async function storedFile(who: User, name: string, text: string, folderId: string | null = null) {
  const { uploadURL } = await uploaded(app, who, text);
  const file = await fileRecord(app, who, uploadURL, { name });
  if (folderId) await db().file.update({ where: { id: file.id }, data: { folderId } });
  return file;
}

describe('moving several files (REST)', () => {
  it('moves them all into a folder and back to the top level', async () => {
    const a = await uploadFile(app, owner, { name: 'bulk-a.jpg' });
    const b = await uploadFile(app, owner, { name: 'bulk-b.jpg' });
    const folder = await newFolder(app, owner.cookie, 'Bulk target');
    const moved = await send(app, owner.cookie, 'POST', '/api/files/move', { ids: [a.id, b.id], folderId: folder.id });
    expect(moved.status).toBe(200);
    expect(moved.body.map((f: { id: string; folderId: string }) => [f.id, f.folderId])).toEqual([
      [a.id, folder.id],
      [b.id, folder.id],
    ]);
    const back = await send(app, owner.cookie, 'POST', '/api/files/move', { ids: [a.id, b.id], folderId: 'root' });
    expect(back.status).toBe(200);
    expect(await db().file.count({ where: { id: { in: [a.id, b.id] }, folderId: null } })).toBe(2);
  });

  it('moves nothing when one of the files is someone else’s', async () => {
    const mine = await uploadFile(app, owner, { name: 'mine-stays.jpg' });
    const theirs = await uploadFile(app, stranger, { name: 'theirs-stays.jpg' });
    const folder = await newFolder(app, owner.cookie, 'Not for theirs');
    const refused = await send(app, owner.cookie, 'POST', '/api/files/move', {
      ids: [mine.id, theirs.id],
      folderId: folder.id,
    });
    expect(refused).toEqual({ status: 404, body: expect.objectContaining({ message: 'File not found' }) });
    expect((await db().file.findUniqueOrThrow({ where: { id: mine.id } })).folderId).toBeNull();
    expect((await db().file.findUniqueOrThrow({ where: { id: theirs.id } })).folderId).toBeNull();
  });

  it('refuses a folder of someone else’s, a taken name, and two chosen files of one name, moving none', async () => {
    const folder = await newFolder(app, owner.cookie, 'Clash target');
    await uploadFile(app, owner, { name: 'taken.jpg', folderId: folder.id });
    const free = await uploadFile(app, owner, { name: 'free.jpg' });
    const taken = await uploadFile(app, owner, { name: 'taken.jpg' });
    const clash = await send(app, owner.cookie, 'POST', '/api/files/move', {
      ids: [free.id, taken.id],
      folderId: folder.id,
    });
    expect(clash).toEqual({
      status: 409,
      body: expect.objectContaining({ message: 'A file named "taken.jpg" already exists in that folder.' }),
    });
    expect((await db().file.findUniqueOrThrow({ where: { id: free.id } })).folderId).toBeNull();

    const other = await newFolder(app, owner.cookie, 'Twin source');
    const twin = await uploadFile(app, owner, { name: 'free.jpg', folderId: other.id });
    const twins = await send(app, owner.cookie, 'POST', '/api/files/move', {
      ids: [free.id, twin.id],
      folderId: folder.id,
    });
    expect(twins).toEqual({
      status: 409,
      body: expect.objectContaining({
        message: 'Two of the chosen files are named "free.jpg"; rename one of them first.',
      }),
    });
    expect((await db().file.findUniqueOrThrow({ where: { id: twin.id } })).folderId).toBe(other.id);

    const theirFolder = await newFolder(app, stranger.cookie, 'Stranger folder');
    const intoTheirs = await send(app, owner.cookie, 'POST', '/api/files/move', {
      ids: [free.id],
      folderId: theirFolder.id,
    });
    expect(intoTheirs).toEqual({ status: 404, body: expect.objectContaining({ message: 'Folder not found' }) });
  });

  it('says what is wrong with a bad request', async () => {
    const file = await uploadFile(app, owner, { name: 'bad-request.jpg' });
    const cases = [
      [{ ids: [], folderId: null }, 'Choose at least one file.'],
      [{ ids: [file.id] }, 'folderId must be a folder id, "root" or null.'],
      [{ ids: 'nope', folderId: null }, 'ids: ids must be a list of file ids.'],
      [{ ids: Array.from({ length: 501 }, () => file.id), folderId: null }, 'Choose at most 500 files at once.'],
    ] as const;
    for (const [body, message] of cases) {
      const answer = await send(app, owner.cookie, 'POST', '/api/files/move', body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(answer.body.message).toContain(message);
    }
    expect((await send(app, owner.cookie, 'POST', '/api/files/move', { ids: ['x'], folderId: null })).status).toBe(404);
  });
});

describe('deleting several files (REST)', () => {
  it('deletes them with their versions and gallery places, or none when one is someone else’s', async () => {
    const a = await uploadFile(app, owner, { name: 'gone-a.jpg' });
    const b = await uploadFile(app, owner, { name: 'gone-b.jpg' });
    await uploadFile(app, owner, { name: 'gone-b.jpg' });
    const gallery = await makeGallery(app, owner.cookie, { name: 'Bulk delete gallery' });
    await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [a.id] });
    const theirs = await uploadFile(app, stranger, { name: 'theirs-kept.jpg' });

    const refused = await send(app, owner.cookie, 'POST', '/api/files/delete', { ids: [a.id, theirs.id] });
    expect(refused.status).toBe(404);
    expect(await db().file.count({ where: { id: { in: [a.id, theirs.id] } } })).toBe(2);

    const deleted = await send(app, owner.cookie, 'POST', '/api/files/delete', { ids: [a.id, b.id] });
    expect(deleted).toEqual({ status: 200, body: { success: true, ids: [a.id, b.id] } });
    expect(await db().file.count({ where: { id: { in: [a.id, b.id] } } })).toBe(0);
    expect(await db().fileVersion.count({ where: { fileId: { in: [a.id, b.id] } } })).toBe(0);
    expect(await db().galleryItem.count({ where: { galleryId: gallery.id } })).toBe(0);
    const bad = await send(app, owner.cookie, 'POST', '/api/files/delete', { ids: [] });
    expect(bad).toEqual({ status: 400, body: expect.objectContaining({ message: 'Choose at least one file.' }) });
  });
});

describe('downloading several files as one ZIP', () => {
  it('streams every chosen file, with repeated names told apart', async () => {
    const folder = await newFolder(app, owner.cookie, 'Zip source');
    const a = await storedFile(owner, 'call sheet.txt', 'day one');
    const b = await storedFile(owner, 'call sheet.txt', 'day two', folder.id);
    const c = await storedFile(owner, 'notes.txt', 'bring lights');
    const response = await app.request(`/api/files/archive?ids=${a.id},${b.id},${c.id}`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="scoutbase-3-files.zip"');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(Object.fromEntries(await unzipText(bytes))).toEqual({
      'call sheet.txt': 'day one',
      'call sheet (1).txt': 'day two',
      'notes.txt': 'bring lights',
    });
  });

  it('includes files the viewer may only read, and refuses the whole archive for one they may not', async () => {
    const shared = await storedFile(owner, 'shared.txt', 'in a public file');
    await db().file.update({ where: { id: shared.id }, data: { isPublic: true } });
    const own = await storedFile(stranger, 'own.txt', 'the stranger’s');
    const ok = await app.request(`/api/files/archive?ids=${shared.id},${own.id}`, { cookie: stranger.cookie });
    expect(ok.status).toBe(200);
    expect([...(await unzipText(Buffer.from(await ok.arrayBuffer()))).keys()]).toEqual(['shared.txt', 'own.txt']);

    const secret = await storedFile(owner, 'secret.txt', 'private');
    const refused = await app.request(`/api/files/archive?ids=${own.id},${secret.id}`, { cookie: stranger.cookie });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ message: 'File not found' });
    const empty = await app.request('/api/files/archive', { cookie: owner.cookie });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ message: 'Choose at least one file.' });
  });
});

describe('several files over GraphQL', () => {
  const MOVE = `mutation($ids: [ID!]!, $folderId: ID) {
    moveFiles(ids: $ids, folderId: $folderId) {
      __typename
      ... on MutationMoveFilesSuccess { data { id name folder { id } } }
      ... on Error { message code }
    }
  }`;
  const DELETE = `mutation($ids: [ID!]!) {
    deleteFiles(ids: $ids) {
      __typename
      ... on MutationDeleteFilesSuccess { data }
      ... on Error { message code }
    }
  }`;
  const gid = (type: string, id: string) => encodeGlobalID(type, id);

  it('moves files all or none, with a typed error naming the problem', async () => {
    const a = await uploadFile(app, owner, { name: 'gql-a.jpg' });
    const b = await uploadFile(app, owner, { name: 'gql-b.jpg' });
    const folder = await newFolder(app, owner.cookie, 'GQL bulk target');
    const moved = await graphql<{ moveFiles: { data: { id: string; folder: { id: string } }[] } }>(
      app,
      owner.cookie,
      MOVE,
      { ids: [gid('File', a.id), gid('File', b.id)], folderId: gid('Folder', folder.id) },
    );
    expect(moved.data!.moveFiles.data.map((f) => [f.id, f.folder.id])).toEqual([
      [gid('File', a.id), gid('Folder', folder.id)],
      [gid('File', b.id), gid('Folder', folder.id)],
    ]);

    const theirs = await uploadFile(app, stranger, { name: 'gql-theirs.jpg' });
    const refused = await graphql<{ moveFiles: { __typename: string; message: string } }>(app, owner.cookie, MOVE, {
      ids: [gid('File', a.id), gid('File', theirs.id)],
      folderId: null,
    });
    expect(refused.data!.moveFiles).toMatchObject({ __typename: 'BaseError', message: 'File not found' });
    expect((await db().file.findUniqueOrThrow({ where: { id: a.id } })).folderId).toBe(folder.id);

    await uploadFile(app, owner, { name: 'gql-a.jpg' });
    const clash = await graphql<{ moveFiles: { message: string; code: string } }>(app, owner.cookie, MOVE, {
      ids: [gid('File', a.id), gid('File', b.id)],
      folderId: null,
    });
    expect(clash.data!.moveFiles).toMatchObject({
      message: 'A file named "gql-a.jpg" already exists at the top level.',
      code: 'CONFLICT',
    });
    expect(await db().file.count({ where: { id: { in: [a.id, b.id] }, folderId: folder.id } })).toBe(2);
  });

  it('deletes files all or none', async () => {
    const a = await uploadFile(app, owner, { name: 'gql-del-a.jpg' });
    const b = await uploadFile(app, owner, { name: 'gql-del-b.jpg' });
    const theirs = await uploadFile(app, stranger, { name: 'gql-del-theirs.jpg' });
    const refused = await graphql<{ deleteFiles: { message: string } }>(app, owner.cookie, DELETE, {
      ids: [gid('File', a.id), gid('File', theirs.id)],
    });
    expect(refused.data!.deleteFiles.message).toBe('File not found');
    expect(await db().file.count({ where: { id: { in: [a.id, theirs.id] } } })).toBe(2);
    const deleted = await graphql<{ deleteFiles: { data: string[] } }>(app, owner.cookie, DELETE, {
      ids: [gid('File', a.id), gid('File', b.id)],
    });
    expect(deleted.data!.deleteFiles.data).toEqual([gid('File', a.id), gid('File', b.id)]);
    expect(await db().file.count({ where: { id: { in: [a.id, b.id] } } })).toBe(0);
  });
});
