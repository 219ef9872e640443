import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyone, appWithPeople, type SignedInUser as User, type TestApp } from '../../test/harness.ts';
import { call, joinProject, makeFile, makeGallery, makeProject, shareWith } from './testing.ts';

let app: TestApp, owner: User, reader: User, writer: User, stranger: User;
beforeAll(async () => {
  [app, owner, reader, writer, stranger] = await appWithPeople(
    { name: 'Olivia Owner' },
    anyone,
    { name: 'Walt Writer' },
    anyone,
  );
});
afterAll(() => app.close());

const db = () => app.database.prisma;

describe('sharing a gallery with a project', () => {
  it("needs a project: 'Please select a project to share with.'", async () => {
    const g = await makeGallery(app, owner.cookie);
    for (const body of [{}, { projectId: '' }, { projectId: '  ' }, { projectId: null }]) {
      const { status, body: answer } = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/share`, body);
      expect(status).toBe(400);
      expect(answer.message).toBe('Please select a project to share with.');
    }
    const bad = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/share`, {
      projectId: (await makeProject(app, owner.cookie)).id,
      permission: 'admin',
    });
    expect(bad).toMatchObject({ status: 400, body: { message: 'Permission must be read or write.' } });
  });

  it('shares only to projects the owner belongs to', async () => {
    const g = await makeGallery(app, owner.cookie);
    const foreign = await makeProject(app, stranger.cookie, { name: 'Not yours' });
    const refused = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/share`, { projectId: foreign.id });
    expect(refused).toMatchObject({ status: 404, body: { message: 'Project not found' } });
    expect(await db().galleryShare.count({ where: { galleryId: g.id } })).toBe(0);
  });

  it('defaults to read, records activity and tells the other members in the same transaction', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Harbour' });
    const project = await makeProject(app, owner.cookie, { name: 'Docks', type: 'movie' });
    await joinProject(app, owner, reader, project.id);
    await joinProject(app, owner, writer, project.id);
    const { status, body } = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/share`, {
      projectId: project.id,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ permission: 'read', status: 'active', project: { name: 'Docks', type: 'movie' } });

    const activity = await db().activity.findFirstOrThrow({ where: { action: 'gallery_shared', resourceId: g.id } });
    expect(activity).toMatchObject({ userId: owner.id, resourceType: 'gallery', resourceName: 'Harbour' });
    expect(activity.metadata).toMatchObject({ sharedWith: 3 });

    const notes = await db().notification.findMany({
      where: { link: `/galleries/${encodeURIComponent(encodeGlobalID('Gallery', g.id))}` },
    });
    expect(notes.map((n) => n.userId).sort()).toEqual([reader.id, writer.id].sort());
    expect(notes[0]).toMatchObject({ type: 'team', title: 'Gallery shared with your project' });
    expect(notes[0]?.message).toContain('Olivia Owner shared "Harbour" with "Docks"');

    // Sharing again changes the permission of the one share, without telling everyone again.
    const again = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/share`, {
      projectId: project.id,
      permission: 'write',
    });
    expect(again.body).toMatchObject({ id: body.id, permission: 'write' });
    expect(await db().galleryShare.count({ where: { galleryId: g.id } })).toBe(1);
    expect(
      await db().notification.count({
        where: { link: `/galleries/${encodeURIComponent(encodeGlobalID('Gallery', g.id))}` },
      }),
    ).toBe(2);

    const shares = await call(app, owner.cookie, 'GET', `/api/galleries/${g.id}/shares`);
    expect(shares.body).toEqual([
      expect.objectContaining({
        id: body.id,
        permission: 'write',
        status: 'active',
        project: expect.objectContaining({ name: 'Docks', type: 'movie' }),
      }),
    ]);
  });

  it('rolls back the share when the activity cannot be written', async () => {
    const g = await makeGallery(app, owner.cookie);
    const project = await makeProject(app, owner.cookie);
    // Break the activity write for this one request: the whole share must vanish with it.
    await db().$executeRawUnsafe(
      `ALTER TABLE "Activity" ADD CONSTRAINT no_shares CHECK (action <> 'gallery_shared') NOT VALID`,
    );
    try {
      const { status } = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/share`, {
        projectId: project.id,
      });
      expect(status).toBe(500);
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE "Activity" DROP CONSTRAINT no_shares`);
    }
    expect(await db().galleryShare.count({ where: { galleryId: g.id } })).toBe(0);
  });
});

describe('what each person may do', () => {
  let galleryId: string;
  let ownerFile: string;
  let readShare: string;
  let writeShare: string;
  beforeAll(async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Matrix' });
    galleryId = g.id;
    ownerFile = (await makeFile(app, owner.id, 'owner.jpg')).id;
    await call(app, owner.cookie, 'POST', `/api/galleries/${galleryId}/items`, { fileIds: [ownerFile] });
    readShare = (await shareWith(app, owner, reader, galleryId, 'read')).share.id;
    writeShare = (await shareWith(app, owner, writer, galleryId, 'write')).share.id;
  });

  it('members see the shared gallery in their list with their access', async () => {
    for (const [user, access] of [
      [owner, 'owner'],
      [reader, 'read'],
      [writer, 'write'],
    ] as const) {
      const list = await call(app, user.cookie, 'GET', '/api/galleries?search=matrix');
      expect(list.body.map((g: { id: string; access: string }) => [g.id, g.access])).toEqual([[galleryId, access]]);
      expect((await call(app, user.cookie, 'GET', `/api/galleries/${galleryId}/items`)).body).toHaveLength(1);
    }
    expect((await call(app, stranger.cookie, 'GET', '/api/galleries?search=matrix')).body).toEqual([]);
    expect((await call(app, stranger.cookie, 'GET', `/api/galleries/${galleryId}`)).status).toBe(404);
  });

  it('a read member cannot edit, add, remove, share or delete', async () => {
    const mine = await makeFile(app, reader.id);
    const attempts = [
      await call(app, reader.cookie, 'PATCH', `/api/galleries/${galleryId}`, { name: 'Mine now' }),
      await call(app, reader.cookie, 'POST', `/api/galleries/${galleryId}/items`, { fileIds: [mine.id] }),
      await call(app, reader.cookie, 'DELETE', `/api/galleries/${galleryId}/items/${ownerFile}`),
      await call(app, reader.cookie, 'DELETE', `/api/galleries/${galleryId}`),
      await call(app, reader.cookie, 'DELETE', `/api/project-galleries/${readShare}`),
    ];
    expect(attempts.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
    const g = await db().gallery.findUniqueOrThrow({
      where: { id: galleryId },
      include: { _count: { select: { items: true } } },
    });
    expect(g.name).toBe('Matrix');
    expect(g._count.items).toBe(1);
    // A member sees only the shares of their own projects.
    const shares = await call(app, reader.cookie, 'GET', `/api/galleries/${galleryId}/shares`);
    expect(shares.body.map((s: { id: string }) => s.id)).toEqual([readShare]);
  });

  it('a write member edits and adds their own files; the owner hears about it', async () => {
    const edited = await call(app, writer.cookie, 'PATCH', `/api/galleries/${galleryId}`, { notes: 'Gate code 1234' });
    expect(edited).toMatchObject({ status: 200, body: { notes: 'Gate code 1234', access: 'write' } });
    const publicity = await call(app, writer.cookie, 'PATCH', `/api/galleries/${galleryId}`, { isPublic: true });
    expect(publicity.status).toBe(403);

    const theirs = await makeFile(app, writer.id, 'walt.jpg');
    const added = await call(app, writer.cookie, 'POST', `/api/galleries/${galleryId}/items`, { fileIds: [theirs.id] });
    expect(added.status).toBe(201);
    expect(added.body.map((i: { fileId: string }) => i.fileId)).toEqual([theirs.id]);
    const note = await db().notification.findFirstOrThrow({ where: { userId: owner.id, type: 'file' } });
    expect(note).toMatchObject({
      title: 'Files added to your gallery',
      link: `/galleries/${encodeURIComponent(encodeGlobalID('Gallery', galleryId))}`,
    });
    expect(note.message).toBe('Walt Writer added "walt.jpg" to "Matrix".');
    expect(await db().activity.count({ where: { userId: writer.id, action: 'file_added_to_gallery' } })).toBe(1);

    // Files of someone else cannot be slipped in, even by a writer.
    const ownerOnly = await makeFile(app, owner.id, 'private.jpg');
    const slipped = await call(app, writer.cookie, 'POST', `/api/galleries/${galleryId}/items`, {
      fileIds: [ownerOnly.id],
    });
    expect(slipped).toMatchObject({ status: 404, body: { message: 'File not found' } });

    // Writers may not share or delete.
    expect((await call(app, writer.cookie, 'DELETE', `/api/galleries/${galleryId}`)).status).toBe(403);
    const project = await makeProject(app, writer.cookie);
    const share = await call(app, writer.cookie, 'POST', `/api/galleries/${galleryId}/share`, {
      projectId: project.id,
    });
    expect(share).toMatchObject({ status: 403, body: { message: 'Only the gallery owner can share it.' } });
  });

  it('adds nothing when the owner cannot be notified (one transaction)', async () => {
    const theirs = await makeFile(app, writer.id, 'rollback.jpg');
    await db().$executeRawUnsafe(
      `ALTER TABLE "Notification" ADD CONSTRAINT no_file_notes CHECK (type <> 'file') NOT VALID`,
    );
    try {
      const added = await call(app, writer.cookie, 'POST', `/api/galleries/${galleryId}/items`, {
        fileIds: [theirs.id],
      });
      expect(added.status).toBe(500);
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE "Notification" DROP CONSTRAINT no_file_notes`);
    }
    expect(await db().galleryItem.count({ where: { galleryId, fileId: theirs.id } })).toBe(0);
    expect(await db().activity.count({ where: { userId: writer.id, action: 'file_added_to_gallery' } })).toBe(1);
  });

  it('revoking removes access at once', async () => {
    const revoked = await call(app, owner.cookie, 'DELETE', `/api/project-galleries/${writeShare}`);
    expect(revoked.status).toBe(200);
    expect((await call(app, writer.cookie, 'GET', `/api/galleries/${galleryId}`)).status).toBe(404);
    expect((await call(app, writer.cookie, 'PATCH', `/api/galleries/${galleryId}`, { notes: 'x' })).status).toBe(404);
    expect((await call(app, writer.cookie, 'GET', `/api/galleries/${galleryId}/items`)).status).toBe(404);
    expect((await call(app, writer.cookie, 'GET', '/api/galleries?search=matrix')).body).toEqual([]);
    // The reader's share is untouched.
    expect((await call(app, reader.cookie, 'GET', `/api/galleries/${galleryId}`)).status).toBe(200);
    expect((await call(app, owner.cookie, 'DELETE', `/api/project-galleries/${writeShare}`)).status).toBe(404);
  });
});
