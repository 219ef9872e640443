import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { uploadFile } from '../files/testing.ts';
import { accessOf } from '../galleries/viewer-access.ts';
import { makeGallery, shareWith } from '../galleries/testing.ts';
import { Prisma } from '../generated/prisma/client.ts';
import {
  type AccessMode,
  accessShareWhere,
  fileAccessWhere,
  folderAccessSql,
  folderAccessWhere,
  galleryAccessSql,
  galleryAccessWhere,
  galleryFilesSql,
  galleryReaders,
  mayChangeFile,
  readableFileSql,
  readableGallerySql,
  sharedGallerySql,
  seesFolderOf,
  type SqlViewer,
  sharedGalleryWhere,
  taskPermissions,
  taskVisibleWhere,
  viewerMark,
  viewerValue,
  visibleShareWhere,
  visibleTaskSql,
  visibleUserSql,
  visibleUserSqlOf,
  visibleUsersWhere,
} from './rules.ts';

// Each access rule exists as Prisma's `where` and as one SQL builder, which statements take with
// the viewer's id bound (Prisma.sql) or as a positional mark (text sent through Db.$sql). Every
// form must give the same rows to every kind of viewer: an owner, a member of a project a gallery
// is shared with (read or write), a member whose share is paused, someone who sees only public
// files, a stranger with things of their own.

let app: TestApp;
let viewers: SignedInUser[];
const db = () => app.database.prisma;
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const modes: AccessMode[] = ['read', 'write'];

/** Each form's rows for each viewer, which must all equal the first form's; returns those rows' counts. */
async function sameRows(forms: Record<string, (viewer: SignedInUser) => Promise<{ id: string }[]>>) {
  const counts: number[] = [];
  for (const viewer of viewers) {
    const [first, ...rest] = Object.entries(forms);
    if (!first) throw new Error('no forms');
    const expected = ids(await first[1](viewer));
    for (const [name, form] of rest) expect({ [name]: ids(await form(viewer)) }).toEqual({ [name]: expected });
    counts.push(expected.length);
  }
  return counts;
}

/** A rule's SQL builder, run with the viewer's id bound and as the positional mark of text. */
function sqlForms(table: string, alias: string, rule: (viewer: SqlViewer) => Prisma.Sql) {
  const from = `SELECT ${alias}.id::text AS id FROM "${table}" ${alias} WHERE`;
  return {
    'sql, bound': (v: SignedInUser) =>
      db().$queryRaw<{ id: string }[]>(Prisma.sql`${Prisma.raw(from)} ${rule(viewerValue(v.id))}`),
    'sql, text': (v: SignedInUser) => db().$sql<{ id: string }>(`${from} ${rule(viewerMark('$1')).sql}`, [v.id]),
  };
}

beforeAll(async () => {
  app = await testApp();
  viewers = await Promise.all(Array.from({ length: 6 }, () => signedInUser(app)));
  const [sharer, reader, writer, paused, , stranger] = viewers as SignedInUser[] as [
    SignedInUser,
    SignedInUser,
    SignedInUser,
    SignedInUser,
    SignedInUser,
    SignedInUser,
  ];
  const shared = await uploadFile(app, sharer, { name: 'rule-shared.jpg' });
  await uploadFile(app, sharer, { name: 'rule-public.jpg', isPublic: true });
  await uploadFile(app, sharer, { name: 'rule-private.jpg' });
  await uploadFile(app, stranger, { name: 'stranger-own.jpg' });
  const gallery = await makeGallery(app, sharer.cookie, { name: 'Rule gallery' });
  await makeGallery(app, sharer.cookie, { name: 'Unshared gallery' });
  await makeGallery(app, stranger.cookie, { name: 'Stranger gallery' });
  await db().galleryItem.create({
    data: { galleryId: gallery.id, fileId: shared.id, position: 0, addedById: sharer.id },
  });
  await shareWith(app, sharer, reader, gallery.id, 'read');
  await shareWith(app, sharer, writer, gallery.id, 'write');
  const pausedShare = await shareWith(app, sharer, paused, gallery.id, 'write');
  await db().galleryShare.update({ where: { id: pausedShare.share.id }, data: { status: 'paused' } });
  const top = await db().folder.create({ data: { ownerId: sharer.id, name: 'Rule folder' } });
  await db().folder.create({ data: { ownerId: sharer.id, name: 'Inner', parentId: top.id } });
  await db().folder.create({ data: { ownerId: stranger.id, name: 'Stranger folder' } });
  await db().task.create({ data: { creatorId: sharer.id, assigneeId: reader.id, title: 'Scout the roof' } });
  await db().task.create({ data: { creatorId: sharer.id, title: 'Own task' } });
  await db().task.create({ data: { creatorId: writer.id, assigneeId: writer.id, title: 'Self-assigned' } });
}, 60_000);
afterAll(() => app.close());

// Viewers, in order: sharer (owner), reader, writer, paused, public-only, stranger.
describe('every form of a rule gives the same rows to every kind of viewer', () => {
  it('files a viewer may read', async () => {
    const counts = await sameRows({
      prisma: (v) => db().file.findMany({ where: fileAccessWhere(v.id), select: { id: true } }),
      sql: (v) => db().$queryRaw(Prisma.sql`SELECT f.id::text AS id FROM "File" f WHERE ${readableFileSql(v.id)}`),
      'sql, gallery files collected once': (v) =>
        db().$queryRaw(Prisma.sql`WITH shared AS (${galleryFilesSql(v.id)})
          SELECT f.id::text AS id FROM "File" f WHERE ${readableFileSql(v.id, 'f', 'shared')}`),
    });
    // Everyone sees the public file; reader and writer also the shared one.
    expect(counts).toEqual([3, 2, 2, 1, 1, 2]);
  });

  it('files a viewer may change: their own', async () => {
    const counts = await sameRows({
      prisma: (v) => db().file.findMany({ where: fileAccessWhere(v.id, 'write'), select: { id: true } }),
      'a row already read': async (v) => (await db().file.findMany()).filter((f) => mayChangeFile(v.id, f)),
      'whose folder they may know': async (v) => (await db().file.findMany()).filter((f) => seesFolderOf(v.id, f)),
    });
    expect(counts).toEqual([3, 0, 0, 0, 0, 1]);
  });

  for (const mode of modes) {
    it(`galleries a viewer may ${mode}`, async () => {
      const counts = await sameRows({
        prisma: (v) => db().gallery.findMany({ where: galleryAccessWhere(v.id, mode), select: { id: true } }),
        ...sqlForms('Gallery', 'g', (viewer) => galleryAccessSql('g', viewer, mode)),
        ...(mode === 'read' && {
          'readableGallerySql (text)': (v: SignedInUser) =>
            db().$sql<{ id: string }>(
              `SELECT g.id::text AS id FROM "Gallery" g WHERE ${readableGallerySql('g', '$1')}`,
              [v.id],
            ),
        }),
        // What galleryFor decides from the shares it loads with a gallery.
        'accessOf over the shares that give access': async (v) => {
          const all = await db().gallery.findMany({ include: { shares: { where: accessShareWhere(v.id) } } });
          return all.filter(
            (g) => (g.ownerId === v.id || g.shares.length > 0) && (mode === 'read' || accessOf(v.id, g) !== 'read'),
          );
        },
      });
      // sharer: two of theirs; reader: the shared one to read only; paused and public-only: none;
      // stranger: their own.
      expect(counts).toEqual(mode === 'read' ? [2, 1, 1, 0, 0, 1] : [2, 0, 1, 0, 0, 1]);
    });

    it(`galleries shared with a viewer (${mode}), without their own`, async () => {
      const counts = await sameRows({
        prisma: (v) =>
          db().gallery.findMany({ where: { shares: { some: accessShareWhere(v.id, mode) } }, select: { id: true } }),
        ...sqlForms('Gallery', 'g', (viewer) => sharedGallerySql('g', viewer, mode)),
      });
      // The sharer belongs to the projects they shared with (as their owner).
      expect(counts).toEqual(mode === 'read' ? [1, 1, 1, 0, 0, 0] : [1, 0, 1, 0, 0, 0]);
    });
  }

  it('shares a viewer may see: all of their galleries, only their own projects of others', async () => {
    const counts = await sameRows({
      prisma: (v) => db().galleryShare.findMany({ where: visibleShareWhere(v.id), select: { id: true } }),
      spelled: async (v) => {
        const all = await db().galleryShare.findMany({
          include: { gallery: true, project: { include: { members: true } } },
        });
        return all.filter((s) => s.gallery.ownerId === v.id || s.project.members.some((m) => m.userId === v.id));
      },
    });
    // The paused member still sees their project's (paused) share.
    expect(counts).toEqual([3, 1, 1, 1, 0, 0]);
  });

  it('galleries with an active share the viewer may see (their activity)', async () => {
    const counts = await sameRows({
      prisma: (v) => db().gallery.findMany({ where: sharedGalleryWhere(v.id), select: { id: true } }),
      spelled: (v) =>
        db().gallery.findMany({
          where: { shares: { some: { AND: [{ status: 'active' }, visibleShareWhere(v.id)] } } },
          select: { id: true },
        }),
    });
    expect(counts).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it('galleries a viewer may read, from the gallery: its readers', async () => {
    await sameRows({
      prisma: (v) => db().gallery.findMany({ where: galleryAccessWhere(v.id), select: { id: true } }),
      readers: async (v) => {
        const all = await db().gallery.findMany({ select: { id: true } });
        const read = await Promise.all(all.map(async (g) => (await galleryReaders(db(), g.id)).includes(v.id)));
        return all.filter((_, i) => read[i]);
      },
    });
  });

  it('folders a viewer may see and change: their own', async () => {
    const counts = await sameRows({
      prisma: (v) => db().folder.findMany({ where: folderAccessWhere(v.id), select: { id: true } }),
      ...sqlForms('Folder', 'r', (viewer) => folderAccessSql('r', viewer)),
    });
    expect(counts).toEqual([2, 0, 0, 0, 0, 1]);
  });

  it('tasks a viewer may see, and may change', async () => {
    const counts = await sameRows({
      prisma: (v) => db().task.findMany({ where: taskVisibleWhere(v.id), select: { id: true } }),
      ...sqlForms('Task', 't', (viewer) => visibleTaskSql('t', viewer)),
      // Whoever may complete a task (its creator or assignee) sees it.
      'may complete': async (v) => (await db().task.findMany()).filter((t) => taskPermissions(v.id, t).complete),
    });
    expect(counts).toEqual([2, 1, 1, 0, 0, 0]);
  });

  it('people a viewer may see', async () => {
    const counts = await sameRows({
      prisma: (v) =>
        db().user.findMany({
          where: { AND: [visibleUsersWhere(v.id), { id: { in: viewers.map((u) => u.id) } }] },
          select: { id: true },
        }),
      'sql, bound': (v) =>
        db().$queryRaw(Prisma.sql`SELECT u.id::text AS id FROM "User" u
          WHERE u.id = ANY(${viewers.map((u) => u.id)}::uuid[]) AND ${visibleUserSqlOf('u', viewerValue(v.id))}`),
      'sql, text': (v) =>
        db().$sql(
          `SELECT u.id::text AS id FROM "User" u WHERE u.id = ANY($2::uuid[]) AND ${visibleUserSql('u', '$1')}`,
          [v.id, viewers.map((u) => u.id)],
        ),
    });
    // The sharer shares a project with each of the three members; each member only with the sharer.
    expect(counts).toEqual([4, 2, 2, 2, 1, 1]);
  });
});
