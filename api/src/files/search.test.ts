import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql } from '../../test/harness.ts';
import { makeGallery, shareWith } from '../galleries/testing.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { searchSql } from './search.ts';
import { newFolder, send, uploadFile } from './testing.ts';

let app: TestApp, owner: User, member: User;
const db = () => app.database.prisma;

beforeAll(async () => {
  [app, owner, member] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

const found = async (user: User, q: string) =>
  (await send(app, user.cookie, 'GET', `/api/files/search?q=${encodeURIComponent(q)}`)).body.map(
    (f: { name: string }) => f.name,
  );

describe('tag prefixes', () => {
  it('finds a tag by its beginning, and not by a piece from its middle', async () => {
    await uploadFile(app, owner, { name: 'IMG_7001.jpg', tags: ['Canon EOS R5', 'exterior'] });
    await uploadFile(app, owner, { name: 'IMG_7002.jpg', tags: ['sony a7'] });
    expect(await found(owner, 'canon')).toEqual(['IMG_7001.jpg']);
    expect(await found(owner, 'Canon EOS')).toEqual(['IMG_7001.jpg']);
    expect(await found(owner, 'exter')).toEqual(['IMG_7001.jpg']);
    expect(await found(owner, 'eos r5')).toEqual([]);
    // Wildcards in the query are text.
    expect(await found(owner, 'can%')).toEqual([]);
    // Another person's tags stay theirs.
    expect(await found(member, 'canon')).toEqual([]);
  });

  it('finds older files by a tag prefix from an index, without reading the file table', async () => {
    const page = async (q: string, window: number) =>
      (await db().$queryRaw<{ id: string }[]>(searchSql(owner.id, q, { window }))).map((r) => r.id);
    const older = await uploadFile(app, owner, { name: 'DSC_0100.jpg', tags: ['dolly track'] });
    await uploadFile(app, owner, { name: 'DSC_0101.jpg' });
    // A window of one file sends the match down the index way; the page is the same.
    expect(await page('dolly', 1)).toEqual([older.id]);
    expect(await page('dolly', 2000)).toEqual([older.id]);
    const plan = await db().$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const rows = await tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${searchSql(owner.id, 'dolly')}`);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('File_tags_prefix_idx');
    expect(plan).not.toMatch(/Seq Scan on "File"/);
  });
});

describe('folder of each result', () => {
  it('names the folders from the top down for the viewer’s own files, and nothing of other people’s folders', async () => {
    const scouting = await newFolder(app, owner.cookie, 'Scouting');
    const barns = await newFolder(app, owner.cookie, 'Barns', scouting.id);
    const inBarns = await uploadFile(app, owner, { name: 'hayloft.jpg', folderId: barns.id });
    // The same name at the top level: only the path tells the two apart.
    const atTop = await uploadFile(app, owner, { name: 'hayloft.jpg' });
    const gallery = await makeGallery(app, owner.cookie, { name: 'Hay' });
    await db().galleryItem.create({
      data: { galleryId: gallery.id, fileId: inBarns.id, position: 0, addedById: owner.id },
    });
    await shareWith(app, owner, member, gallery.id);

    const rest = await send(app, owner.cookie, 'GET', '/api/files/search?q=hayloft');
    expect(rest.body.map((f: { id: string; folderPath: string[] }) => [f.id, f.folderPath])).toEqual([
      [atTop.id, []],
      [inBarns.id, ['Scouting', 'Barns']],
    ]);
    const query = `{ searchFiles(query: "hayloft", first: 10) { edges { node { name folderPath } } } }`;
    type Search = { searchFiles: { edges: { node: unknown }[] } };
    const mine = await graphql<Search>(app, owner.cookie, query);
    expect(mine.data?.searchFiles.edges.map((e) => e.node)).toEqual([
      { name: 'hayloft.jpg', folderPath: [] },
      { name: 'hayloft.jpg', folderPath: ['Scouting', 'Barns'] },
    ]);
    // The member sees the shared file, not the names of the owner's folders.
    const theirs = await graphql<Search>(app, member.cookie, query);
    expect(theirs.data?.searchFiles.edges.map((e) => e.node)).toEqual([{ name: 'hayloft.jpg', folderPath: null }]);
    const theirsRest = await send(app, member.cookie, 'GET', '/api/files/search?q=hayloft');
    expect(theirsRest.body.map((f: { folderPath: unknown }) => f.folderPath)).toEqual([null]);
  });
});
