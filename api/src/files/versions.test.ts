import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedUpload } from '../../test/fixtures.ts';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser, testApp } from '../../test/harness.ts';
import { makeGallery, shareWith } from '../galleries/testing.ts';
import { put, uploaded } from '../storage/testing.ts';
import { send, uploadFile } from './testing.ts';

// 'Upload new version' on a file (POST /api/files/{id}/versions and uploadFileVersion).

let app: TestApp, owner: User, stranger: User;
const db = () => app.database.prisma;

beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

const text = (words: string) => new TextEncoder().encode(`Call sheet: ${words}\n`);

async function bytesAt(path: string, who: User) {
  const response = await app.request(path, { cookie: who.cookie });
  return { status: response.status, text: response.status === 200 ? await response.text() : '' };
}

async function versionsOf(fileId: string, who: User = owner) {
  const listed = await send(app, who.cookie, 'GET', `/api/files/${fileId}/versions`);
  return listed.body as { version: number; size: number; isCurrent: boolean; objectPath: string }[];
}

describe('POST /api/files/:id/versions', () => {
  it('makes an upload of any name the newest version, keeps the name, and serves and restores every version', async () => {
    const first = await uploaded(app, owner, text('day one'));
    const created = await send(app, owner.cookie, 'POST', '/api/files', {
      name: 'call-sheet.txt',
      objectUrl: first.uploadURL,
      folderId: null,
    });
    expect(created.status).toBe(201);
    const fileId = created.body.id as string;

    const second = await uploaded(app, owner, text('day two, revised call times'));
    const added = await send(app, owner.cookie, 'POST', `/api/files/${fileId}/versions`, {
      objectUrl: second.uploadURL,
      originalName: 'call sheet FINAL (2).txt',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      id: fileId,
      name: 'call-sheet.txt',
      originalName: 'call sheet FINAL (2).txt',
      version: 2,
      size: second.size,
      checksum: second.checksum,
      objectPath: second.objectPath,
    });

    const versions = await versionsOf(fileId);
    expect(versions.map((v) => [v.version, v.size, v.isCurrent])).toEqual([
      [2, second.size, true],
      [1, first.size, false],
    ]);
    // Each version's bytes are served to the owner from its own path, and to nobody else.
    expect(await bytesAt(versions[1]!.objectPath, owner)).toEqual({ status: 200, text: 'Call sheet: day one\n' });
    expect((await bytesAt(versions[0]!.objectPath, owner)).text).toBe('Call sheet: day two, revised call times\n');
    expect((await bytesAt(versions[1]!.objectPath, stranger)).status).toBe(404);

    const activity = await db().activity.findFirst({
      where: { resourceId: fileId, action: 'file_uploaded' },
      orderBy: { createdAt: 'desc' },
    });
    expect(activity?.metadata).toMatchObject({ version: 2, size: second.size });

    const restored = await send(app, owner.cookie, 'POST', `/api/files/${fileId}/versions/1/restore`);
    expect(restored.body).toMatchObject({ id: fileId, version: 3, size: first.size, objectPath: first.objectPath });
    expect((await versionsOf(fileId)).map((v) => v.version)).toEqual([3, 2, 1]);
    expect((await bytesAt(restored.body.objectPath, owner)).text).toBe('Call sheet: day one\n');

    const third = await uploaded(app, owner, text('day three'));
    const again = await send(app, owner.cookie, 'POST', `/api/files/${fileId}/versions`, {
      objectUrl: third.uploadURL,
    });
    expect(again.body).toMatchObject({ version: 4, name: 'call-sheet.txt', originalName: 'call-sheet.txt' });
  });

  it('refuses bad input with a message and leaves the file alone', async () => {
    const file = await uploadFile(app, owner, { name: 'plan.jpg' }, { size: 100 });
    const path = `/api/files/${file.id}/versions`;
    expect(await send(app, owner.cookie, 'POST', path, {})).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'objectUrl is required.' }),
    });
    const unknown = await send(app, owner.cookie, 'POST', path, { objectUrl: 'x', name: 'renamed.jpg' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/name/);
    expect((await send(app, owner.cookie, 'POST', path, 'not json')).status).toBe(400);
    const foreign = await send(app, owner.cookie, 'POST', path, { objectUrl: 'https://example.com/x.jpg' });
    expect(foreign.body.message).toBe('objectUrl is not an upload URL of yours.');
    // Bytes that already belong to a file (here: its own current version) cannot be claimed twice.
    const reused = await send(app, owner.cookie, 'POST', path, { objectUrl: file.objectPath });
    expect(reused).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'This upload already belongs to a file.' }),
    });
    const missing = finishedUpload(app, owner.id);
    expect(
      (
        await send(app, owner.cookie, 'POST', '/api/files/not-a-uuid/versions', {
          objectUrl: (await missing).uploadURL,
        })
      ).status,
    ).toBe(404);
    expect(await db().fileVersion.count({ where: { fileId: file.id } })).toBe(1);
    expect((await db().file.findUniqueOrThrow({ where: { id: file.id } })).size).toBe(100n);
  });

  it('is a 404 for a stranger, who changes nothing and keeps their upload unclaimed', async () => {
    const file = await uploadFile(app, owner, { name: 'private.jpg' }, { size: 100 });
    const theirs = await finishedUpload(app, stranger.id, { size: 999 });
    const answer = await send(app, stranger.cookie, 'POST', `/api/files/${file.id}/versions`, {
      objectUrl: theirs.uploadURL,
    });
    expect(answer).toEqual({ status: 404, body: expect.objectContaining({ message: expect.any(String) }) });
    expect(await db().fileVersion.count({ where: { fileId: file.id } })).toBe(1);
    expect((await db().file.findUniqueOrThrow({ where: { id: file.id } })).size).toBe(100n);
    expect((await db().upload.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe('uploaded');
  });

  it('lets a member with a read share see the file but not add a version', async () => {
    const member = await signedInUser(app);
    const file = await uploadFile(app, owner, { name: 'shared-still.jpg' }, { size: 100 });
    const gallery = await makeGallery(app, owner.cookie);
    expect(
      (await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] })).status,
    ).toBe(201);
    await shareWith(app, owner, member, gallery.id, 'read');
    expect((await send(app, member.cookie, 'GET', `/api/files/${file.id}`)).status).toBe(200);
    expect((await versionsOf(file.id, member)).map((v) => v.version)).toEqual([1]);

    const theirs = await finishedUpload(app, member.id, { size: 555 });
    const answer = await send(app, member.cookie, 'POST', `/api/files/${file.id}/versions`, {
      objectUrl: theirs.uploadURL,
    });
    expect(answer.status).toBe(404);
    expect(await db().fileVersion.count({ where: { fileId: file.id } })).toBe(1);
    expect((await db().file.findUniqueOrThrow({ where: { id: file.id } })).size).toBe(100n);
  });

  it('respects the storage quota: bytes past it never arrive, so they cannot become a version', async () => {
    const small = await testApp({ STORAGE_QUOTA: '1KB' });
    try {
      const who = await signedInUser(small);
      const first = await put(small, who, 'a'.repeat(600));
      expect(first.response.status).toBe(200);
      const created = await send(small, who.cookie, 'POST', '/api/files', {
        name: 'notes.txt',
        objectUrl: first.uploadURL,
      });
      expect(created.status).toBe(201);

      const tooMuch = await put(small, who, 'b'.repeat(600));
      expect(tooMuch.response.status).toBe(413);
      expect(((await tooMuch.response.json()) as { message: string }).message).toMatch(/^Storage quota exceeded/);
      const refused = await send(small, who.cookie, 'POST', `/api/files/${created.body.id}/versions`, {
        objectUrl: tooMuch.uploadURL,
      });
      expect(refused.status).toBe(400);
      const listed = await send(small, who.cookie, 'GET', `/api/files/${created.body.id}/versions`);
      expect(listed.body.map((v: { version: number }) => v.version)).toEqual([1]);

      // What fits in the room left is accepted.
      const fits = await put(small, who, 'c'.repeat(400));
      expect(fits.response.status).toBe(200);
      const added = await send(small, who.cookie, 'POST', `/api/files/${created.body.id}/versions`, {
        objectUrl: fits.uploadURL,
      });
      expect(added.body).toMatchObject({ version: 2, size: 400 });
    } finally {
      await small.close();
    }
  });
});

const UPLOAD_VERSION = `mutation($fileId: ID!, $uploadURL: String!) {
  uploadFileVersion(fileId: $fileId, uploadURL: $uploadURL) {
    __typename
    ... on MutationUploadFileVersionSuccess { data { id name size currentVersion versions { version size } } }
    ... on Error { message code }
  }
}`;

describe('uploadFileVersion over GraphQL', () => {
  it('adds a version for the owner and answers typed errors otherwise', async () => {
    const file = await uploadFile(app, owner, { name: 'storyboard.jpg' }, { size: 100 });
    const fileId = Buffer.from(`File:${file.id}`).toString('base64');
    const next = await finishedUpload(app, owner.id, { size: 2500 });
    type Answer = {
      uploadFileVersion: {
        __typename: string;
        message?: string;
        code?: string;
        data?: { name: string; size: number; currentVersion: number; versions: { version: number }[] };
      };
    };
    const ok = await graphql<Answer>(app, owner.cookie, UPLOAD_VERSION, { fileId, uploadURL: next.uploadURL });
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.uploadFileVersion).toMatchObject({
      __typename: 'MutationUploadFileVersionSuccess',
      data: { name: 'storyboard.jpg', size: 2500, currentVersion: 2, versions: [{ version: 2 }, { version: 1 }] },
    });

    const theirs = await finishedUpload(app, stranger.id, { size: 7 });
    const refused = await graphql<Answer>(app, stranger.cookie, UPLOAD_VERSION, {
      fileId,
      uploadURL: theirs.uploadURL,
    });
    expect(refused.data?.uploadFileVersion).toMatchObject({ message: 'File not found', code: 'NOT_FOUND' });
    const bad = await graphql<Answer>(app, owner.cookie, UPLOAD_VERSION, { fileId, uploadURL: 'nope' });
    expect(bad.data?.uploadFileVersion).toMatchObject({
      __typename: 'ValidationError',
      message: 'objectUrl is not an upload URL of yours.',
    });
    expect(await db().fileVersion.count({ where: { fileId: file.id } })).toBe(2);
  });
});
