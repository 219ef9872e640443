import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { uploadFile } from '../files/testing.ts';
import { makeGallery, shareWith } from '../galleries/testing.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { fileAccessWhere, galleryAccessWhere, readableFileSql, readableGallerySql } from './rules.ts';

// Each access rule exists as Prisma's `where` and as SQL. The two must give the same rows to every
// kind of viewer: an owner, a member of a project a gallery is shared with (read or write), a
// member whose share is paused, someone who sees only public files, a stranger.

let app: TestApp;
let viewers: SignedInUser[];
const db = () => app.database.prisma;
const sorted = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

beforeAll(async () => {
  app = await testApp();
  viewers = await Promise.all(Array.from({ length: 5 }, () => signedInUser(app)));
  const [sharer, reader, writer, paused, stranger] = viewers as [
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
}, 60_000);
afterAll(() => app.close());

describe('the SQL twin of each rule gives the rows of its Prisma where', () => {
  it('files a viewer may read', async () => {
    for (const viewer of viewers) {
      const viaPrisma = await db().file.findMany({ where: fileAccessWhere(viewer.id), select: { id: true } });
      const viaSql = await db().$queryRaw<{ id: string }[]>(
        Prisma.sql`SELECT f.id::text AS id FROM "File" f WHERE ${readableFileSql(viewer.id)}`,
      );
      expect(sorted(viaSql)).toEqual(sorted(viaPrisma));
      expect(viaPrisma.length).toBeGreaterThan(0);
    }
  });

  it('galleries a viewer may read', async () => {
    const counts = [];
    for (const viewer of viewers) {
      const viaPrisma = await db().gallery.findMany({ where: galleryAccessWhere(viewer.id), select: { id: true } });
      const viaSql = await db().$sql<{ id: string }>(
        `SELECT g.id::text AS id FROM "Gallery" g WHERE ${readableGallerySql('g', '$1')}`,
        [viewer.id],
      );
      expect(sorted(viaSql)).toEqual(sorted(viaPrisma));
      counts.push(viaPrisma.length);
    }
    // sharer: two of theirs; reader and writer: the shared one; paused: none; stranger: their own.
    expect(counts).toEqual([2, 1, 1, 0, 1]);
  });
});
