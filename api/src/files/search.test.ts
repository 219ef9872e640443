import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
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
