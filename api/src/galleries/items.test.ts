import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { countStatements } from '../../test/statements.ts';
import type { ViewerContext } from '../context.ts';
import { addFilesToGallery } from './items.ts';
import { firstItemsReadWith, galleryItemsPage, readableGalleryWithFacts } from './listing.ts';
import { call, makeFile, makeGallery } from './testing.ts';

let app: TestApp, owner: User;
beforeAll(async () => {
  [app, owner] = await appWithPeople(anyone);
});
afterAll(() => app.close());

const contextOf = (user: User): ViewerContext => ({
  ...app.services,
  viewer: { id: user.id, email: user.email, sessionId: 'test' },
});

type ItemsPage = {
  node: {
    items: {
      totalCount: number;
      pageInfo: { endCursor: string; hasNextPage: boolean };
      edges: { node: { position: number; name: string } }[];
    };
  };
};

const ids = (items: { fileId: string }[]) => items.map((i) => i.fileId);

describe('gallery items', () => {
  it('adds files in the order given, ignores duplicates, removes and reorders', async () => {
    const g = await makeGallery(app, owner.cookie);
    const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map((n) => makeFile(app, owner.id, `${n}.jpg`)));
    if (!a || !b || !c || !d) throw new Error('files');
    const first = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, {
      fileIds: [b.id, a.id, b.id],
    });
    expect(first.status).toBe(201);
    expect(ids(first.body)).toEqual([b.id, a.id]);
    const second = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, {
      fileIds: [a.id, c.id, d.id],
    });
    expect(ids(second.body)).toEqual([c.id, d.id]);
    const list = async () => ids((await call(app, owner.cookie, 'GET', `/api/galleries/${g.id}/items`)).body);
    expect(await list()).toEqual([b.id, a.id, c.id, d.id]);

    // Move d before a, then b to the end.
    expect(
      (await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}/items/${d.id}`, { beforeFileId: a.id })).status,
    ).toBe(200);
    expect(await list()).toEqual([b.id, d.id, a.id, c.id]);
    await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}/items/${b.id}`, { beforeFileId: null });
    expect(await list()).toEqual([d.id, a.id, c.id, b.id]);
    const badMove = await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}/items/${b.id}`, { beforeFileId: 7 });
    expect(badMove.status).toBe(400);

    expect((await call(app, owner.cookie, 'DELETE', `/api/galleries/${g.id}/items/${a.id}`)).status).toBe(200);
    expect(await list()).toEqual([d.id, c.id, b.id]);
    expect((await call(app, owner.cookie, 'DELETE', `/api/galleries/${g.id}/items/${a.id}`)).status).toBe(404);

    const activity = await app.database.prisma.activity.findMany({
      where: { resourceId: g.id, action: 'file_added_to_gallery' },
      orderBy: { createdAt: 'asc' },
    });
    expect(activity.map((x) => x.metadata)).toEqual([
      { fileCount: 2, fileNames: ['b.jpg', 'a.jpg'] },
      { fileCount: 2, fileNames: ['c.jpg', 'd.jpg'] },
    ]);
  });

  it.each([
    [{}, 400, 'Choose at least one file to add.'],
    [{ fileIds: [] }, 400, 'Choose at least one file to add.'],
    [{ fileIds: 'abc' }, 400, 'fileIds must be a list of file ids.'],
    [{ fileIds: ['not-a-uuid'] }, 404, 'File not found'],
    [{ fileIds: [randomUUID()] }, 404, 'File not found'],
  ])('refuses %j', async (body, status, message) => {
    const g = await makeGallery(app, owner.cookie);
    const answer = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, body);
    expect(answer.status).toBe(status);
    expect(answer.body.message).toContain(message);
  });

  it('takes photos and videos only: a text file is refused with a clear message and nothing is added', async () => {
    const g = await makeGallery(app, owner.cookie);
    const photo = await makeFile(app, owner.id, 'pier.jpg');
    const clip = await makeFile(app, owner.id, 'pier.mp4');
    const text = await makeFile(app, owner.id, 'notes.txt');
    await app.database.prisma.file.update({ where: { id: clip.id }, data: { mimeType: 'video/mp4' } });
    await app.database.prisma.file.update({ where: { id: text.id }, data: { mimeType: 'text/plain' } });
    const refused = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, {
      fileIds: [photo.id, text.id],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Only photos and videos can be added to a gallery: notes.txt is not one.');
    expect(await app.database.prisma.galleryItem.count({ where: { galleryId: g.id } })).toBe(0);
    const added = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, {
      fileIds: [photo.id, clip.id],
    });
    expect(added.status).toBe(201);
    expect(ids(added.body)).toEqual([photo.id, clip.id]);
  });

  it('numbers concurrent additions without clashes', async () => {
    const g = await makeGallery(app, owner.cookie);
    const files = [];
    for (let i = 0; i < 6; i++) files.push(await makeFile(app, owner.id, `c${i}.jpg`));
    const answers = await Promise.all(
      files.map((f) => call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [f.id] })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const positions = (await app.database.prisma.galleryItem.findMany({ where: { galleryId: g.id } })).map(
      (i) => i.position,
    );
    expect(positions.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('addFilesToGallery serves other domains', async () => {
    const g = await makeGallery(app, owner.cookie);
    const f = await makeFile(app, owner.id);
    const ctx = { ...app.services, viewer: { id: owner.id, email: owner.email, sessionId: 's' } };
    expect(ids(await addFilesToGallery(ctx, g.id, [f.id]))).toEqual([f.id]);
  });

  it('reads a page of items with their files as Prisma does: every column, ties in position by id, after any item', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Oracle' });
    const db = app.database.prisma;
    const files = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((n) => makeFile(app, owner.id, `${n}.jpg`)));
    await addFilesToGallery(
      contextOf(owner),
      g.id,
      files.map((f) => f.id),
    );
    const [first, second] = files;
    if (!first || !second) throw new Error('files');
    await db.file.update({
      where: { id: first.id },
      data: { tags: ['night', 'exterior'], metadata: { image: { width: 4000, height: 3000 } }, size: 25_000_000_000n },
    });
    // Two items at one position: the order between them is their ids'.
    const items = await db.galleryItem.findMany({ where: { galleryId: g.id }, orderBy: { position: 'asc' } });
    await db.galleryItem.update({ where: { id: items[3]?.id }, data: { position: items[1]?.position } });

    const prismaPage = (take: number, after?: string) =>
      db.galleryItem.findMany({
        where: { galleryId: g.id },
        include: { file: true },
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
        take,
        ...(after && { cursor: { id: after }, skip: 1 }),
      });
    for (const after of [undefined, ...items.map((i) => i.id)]) {
      for (const take of [1, 2, 10]) {
        expect(await galleryItemsPage(contextOf(owner), g.id, { take, after })).toEqual(await prismaPage(take, after));
      }
    }
    expect((await galleryItemsPage(contextOf(owner), g.id, { take: 10 })).map((i) => i.file.name)).toHaveLength(5);
  });

  it('answers what a client asks beyond the files of the items (who added them) from the same page', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Who added' });
    const files = await Promise.all(['a', 'b', 'c'].map((n) => makeFile(app, owner.id, `${n}.jpg`)));
    await addFilesToGallery(
      contextOf(owner),
      g.id,
      files.map((f) => f.id),
    );
    const result = await graphql<{
      node: {
        items: {
          totalCount: number;
          edges: { node: { name: string; addedBy: { id: string }; file: { size: number } } }[];
        };
      };
    }>(
      app,
      owner.cookie,
      `query($id: ID!) { node(id: $id) { ... on Gallery {
         items(first: 2) { totalCount edges { node { name addedBy { id } file { size } } } } } } }`,
      { id: encodeGlobalID('Gallery', g.id) },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.node.items.totalCount).toBe(3);
    expect(result.data?.node.items.edges.map((e) => [e.node.name, e.node.addedBy.id, e.node.file.size])).toEqual([
      ['a.jpg', encodeGlobalID('User', owner.id), 1024],
      ['b.jpg', encodeGlobalID('User', owner.id), 1024],
    ]);
  });

  it("reads the card facts once for a screen's fields, the page's totalCount included, and afresh after a mutation", async () => {
    const g = await makeGallery(app, owner.cookie);
    const files = await Promise.all(['x', 'y'].map((n) => makeFile(app, owner.id, `${n}.jpg`)));
    await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [files[0]?.id] });
    const id = encodeGlobalID('Gallery', g.id);
    const screen = (items: string) => `query($id: ID!) { node(id: $id) { ... on Gallery {
      photoCount viewerCanEdit viewerCanShare items(first: 10) { ${items} edges { node { name } } } } } }`;
    const withoutCount = await countStatements(() => graphql(app, owner.cookie, screen(''), { id }));
    let answer: Awaited<ReturnType<typeof graphql>> | undefined;
    const withCount = await countStatements(async () => {
      answer = await graphql(app, owner.cookie, screen('totalCount'), { id });
    });
    expect(answer?.data).toMatchObject({ node: { photoCount: 1, items: { totalCount: 1 } } });
    expect(withCount).toBe(withoutCount);

    // A mutation's answer reads what it changed, even where an earlier field of it read the facts.
    const added = await graphql(
      app,
      owner.cookie,
      `mutation($id: ID!, $fileIds: [ID!]!) {
        first: updateGallery(id: $id, notes: "two now") { ... on MutationUpdateGallerySuccess { data { photoCount } } }
        second: addFilesToGallery(galleryId: $id, fileIds: $fileIds) {
          ... on MutationAddFilesToGallerySuccess { data { photoCount } }
        }
      }`,
      { id, fileIds: [encodeGlobalID('File', files[1]?.id ?? '')] },
    );
    expect(added.errors).toBeUndefined();
    expect(added.data).toEqual({ first: { data: { photoCount: 1 } }, second: { data: { photoCount: 2 } } });
  });

  it('opens a gallery in two statements: the session, then the gallery with its card facts and its first page of items', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Pier 9' });
    const file = await makeFile(app, owner.id, 'pier.jpg');
    await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [file.id] });
    await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}`, { coverImageId: file.id });
    const id = encodeGlobalID('Gallery', g.id);
    const open = `query($id: ID!) { node(id: $id) { ... on Gallery {
      id name notes isPublic photoCount coverImageUrl coverImageId viewerAccess viewerCanEdit viewerCanShare updatedAt
      items(first: 48) { totalCount edges { node { position file { name } } } } } } }`;
    let answer: Awaited<ReturnType<typeof graphql>> | undefined;
    const statements = await countStatements(async () => {
      answer = await graphql(app, owner.cookie, open, { id });
    });
    expect(answer?.errors).toBeUndefined();
    expect(answer?.data).toMatchObject({
      node: {
        id,
        name: 'Pier 9',
        photoCount: 1,
        coverImageUrl: file.objectPath,
        coverImageId: encodeGlobalID('File', file.id),
        viewerAccess: 'owner',
        viewerCanEdit: true,
        items: { totalCount: 1, edges: [{ node: { position: 0, file: { name: 'pier.jpg' } } }] },
      },
    });
    expect(statements).toBe(2);
    // Asked for a relation, it is read as before (Prisma joins the owner in).
    const withOwner = await graphql(
      app,
      owner.cookie,
      `query($id: ID!) { node(id: $id) { ... on Gallery { name photoCount owner { id } } } }`,
      { id },
    );
    expect(withOwner.data).toEqual({
      node: { name: 'Pier 9', photoCount: 1, owner: { id: encodeGlobalID('User', owner.id) } },
    });
    // Another person's gallery is not there for them, in no more statements.
    const other = await signedInUser(app);
    let hidden: Awaited<ReturnType<typeof graphql>> | undefined;
    const hiddenStatements = await countStatements(async () => {
      hidden = await graphql(app, other.cookie, open, { id });
    });
    expect(hidden?.errors).toBeUndefined();
    expect(hidden?.data).toEqual({ node: null });
    expect(hiddenStatements).toBe(2);
  });

  it("keeps no record per field of each photo while answering a page: one grid page's work grows by a few WeakMap entries a photo", async () => {
    // The Prisma plugin recorded a mapping, and its selection mapper a path key, for every field of
    // every photo that selects through a relation (name, mimeType, url, file): 12.5 WeakMap entries
    // a photo before patches/@pothos__*; a scalar field records nothing, and a field's own path is
    // not kept, since no other field shares it.
    const page = `query($id: ID!) { node(id: $id) { ... on Gallery {
      items(first: 48) { edges { node { id name mimeType url file { size } } } } } } }`;
    type GridPage = { node: { items: { edges: { node: { name: string } }[] } } };
    const entries: number[] = [];
    for (const photos of [10, 20]) {
      const g = await makeGallery(app, owner.cookie, { name: `Grid of ${photos}` });
      const files = [];
      for (let i = 0; i < photos; i++) files.push(await makeFile(app, owner.id, `frame-${i}.jpg`));
      await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: files.map((f) => f.id) });
      const id = encodeGlobalID('Gallery', g.id);
      await graphql(app, owner.cookie, page, { id });
      const set = WeakMap.prototype.set;
      let count = 0;
      WeakMap.prototype.set = function (this: WeakMap<WeakKey, unknown>, key: WeakKey, value: unknown) {
        count += 1;
        return set.call(this, key, value);
      };
      let answer: Awaited<ReturnType<typeof graphql<GridPage>>> | undefined;
      try {
        answer = await graphql<GridPage>(app, owner.cookie, page, { id });
      } finally {
        WeakMap.prototype.set = set;
      }
      expect(answer?.errors).toBeUndefined();
      expect(answer?.data?.node.items.edges.map((e) => e.node.name)).toEqual(files.map((f) => f.name));
      entries.push(count);
    }
    const perPhoto = ((entries[1] ?? 0) - (entries[0] ?? 0)) / 10;
    expect(perPhoto).toBeLessThanOrEqual(6);
  });

  it('reads the first page beside the gallery as galleryItemsPage reads it, and answers the same over GraphQL', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Dockside' });
    const files = await Promise.all(['c', 'a', 'b'].map((n) => makeFile(app, owner.id, `${n}.jpg`)));
    await app.database.prisma.file.update({
      where: { id: files[1]?.id },
      data: { tags: ['night', 'wet'], metadata: { image: { width: 4000, height: 3000 }, thumbnails: { grid: true } } },
    });
    await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: files.map((f) => f.id) });
    const ctx = contextOf(owner);
    for (const take of [2, 3, 4]) {
      const gallery = await readableGalleryWithFacts(ctx, g.id, { firstItems: take });
      if (!gallery) throw new Error('the owner reads their gallery');
      expect(firstItemsReadWith(gallery, take)).toEqual(await galleryItemsPage(ctx, g.id, { take }));
      // Asked for another page size, the field reads its own.
      expect(firstItemsReadWith(gallery, take + 1)).toBeUndefined();
    }
    const page = `items(first: 2) { totalCount pageInfo { hasNextPage endCursor }
      edges { cursor node { id position name url addedAt file { size tags metadata createdAt updatedAt } } } }`;
    const id = encodeGlobalID('Gallery', g.id);
    // node(id:) reads the page with the gallery; nodes(ids:) reads the gallery, then the page.
    const one = await graphql<{ node: unknown }>(
      app,
      owner.cookie,
      `query($id: ID!) { node(id: $id) { ... on Gallery { ${page} } } }`,
      { id },
    );
    const many = await graphql<{ nodes: unknown[] }>(
      app,
      owner.cookie,
      `query($id: ID!) { nodes(ids: [$id]) { ... on Gallery { ${page} } } }`,
      { id },
    );
    expect(one.errors).toBeUndefined();
    expect(one.data?.node).toEqual(many.data?.nodes[0]);
    expect(one.data?.node).toMatchObject({ items: { totalCount: 3, pageInfo: { hasNextPage: true } } });
  });

  // Named statements are PostgreSQL's (the pool's); PGlite plans each of its unnamed ones afresh.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'opens a gallery on a plan PostgreSQL keeps: the statement is not planned again at each opening',
    async () => {
      // A large gallery: with a few photos every plan is cheap, and PostgreSQL keeps the generic one anyway.
      const g = await makeGallery(app, owner.cookie, { name: 'Planned once' });
      const upload = await makeFile(app, owner.id);
      await app.services.db.$sql(
        `WITH files AS (
           INSERT INTO "File" (id, "ownerId", name, "originalName", "mimeType", size, "objectUrl", "objectPath", "updatedAt")
           SELECT gen_random_uuid(), $1, 'still-' || i || '.jpg', 'still.jpg', 'image/jpeg', 1000, $2, $3, now()
           FROM generate_series(1, 5000) i RETURNING id)
         INSERT INTO "GalleryItem" (id, "galleryId", "fileId", position, "addedById")
         SELECT gen_random_uuid(), $4, id, row_number() OVER () - 1, $1 FROM files`,
        [owner.id, upload.objectUrl, upload.objectPath, g.id],
      );
      await app.services.db.$sql('ANALYZE "GalleryItem"', []);
      const ctx = contextOf(owner);
      // One after another, so the pool hands each its last connection back (pg-pool's idle list is a stack).
      for (let i = 0; i < 12; i++) await readableGalleryWithFacts(ctx, g.id, { firstItems: 48 });
      const [plans] = await app.services.db.$sql<{ generic: number; custom: number }>(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
         WHERE statement LIKE '%AS "firstItems"%' ORDER BY generic_plans + custom_plans DESC LIMIT 1`,
        [],
      );
      // PostgreSQL tries five custom plans first, then keeps the generic one unless it costs more.
      expect(plans).toEqual({ generic: 7, custom: 5 });
    },
  );

  it('pages through 10,000 photos by keyset, in order, to the last one', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Huge' });
    const db = app.database.prisma;
    const upload = await makeFile(app, owner.id);
    const total = 10_000;
    const fileIds = Array.from({ length: total }, () => randomUUID());
    for (let i = 0; i < total; i += 2000) {
      const chunk = fileIds.slice(i, i + 2000);
      await db.file.createMany({
        data: chunk.map((id, j) => ({
          id,
          ownerId: owner.id,
          name: `frame-${i + j}.jpg`,
          originalName: `frame-${i + j}.jpg`,
          objectUrl: upload.objectUrl,
          objectPath: upload.objectPath,
        })),
      });
      await db.galleryItem.createMany({
        data: chunk.map((fileId, j) => ({ galleryId: g.id, fileId, position: i + j, addedById: owner.id })),
      });
    }
    // Walk to the end in pages of 500. How fast the far end is, bench/gallery.ts measures.
    let after: string | undefined;
    let seen = 0;
    for (;;) {
      const page = await call(
        app,
        owner.cookie,
        'GET',
        `/api/galleries/${g.id}/items?limit=500${after ? `&after=${after}` : ''}`,
      );
      expect(page.status).toBe(200);
      if (page.body.length === 0) break;
      expect(page.body[0].file.name).toBe(`frame-${seen}.jpg`);
      seen += page.body.length;
      after = page.body.at(-1).cursor;
    }
    expect(seen).toBe(total);

    // The same walk over GraphQL: the items connection of the gallery node.
    let cursor: string | null = null;
    let walked = 0;
    for (;;) {
      const result: Awaited<ReturnType<typeof graphql<ItemsPage>>> = await graphql<ItemsPage>(
        app,
        owner.cookie,
        `query($id: ID!, $after: String) { node(id: $id) { ... on Gallery {
           items(first: 1000, after: $after) { totalCount pageInfo { endCursor hasNextPage } edges { node { position name } } } } } }`,
        { id: encodeGlobalID('Gallery', g.id), after: cursor },
      );
      expect(result.errors).toBeUndefined();
      const items = result.data?.node.items;
      expect(items?.totalCount).toBe(total);
      expect(items?.edges[0]?.node.position).toBe(walked);
      walked += items?.edges.length ?? 0;
      if (!items?.pageInfo.hasNextPage) break;
      cursor = items.pageInfo.endCursor;
    }
    expect(walked).toBe(total);

    const gallery = await call(app, owner.cookie, 'GET', `/api/galleries/${g.id}`);
    expect(gallery.body.photoCount).toBe(total);
    const bad = await call(app, owner.cookie, 'GET', `/api/galleries/${g.id}/items?after=zzz`);
    expect(bad.status).toBe(400);
    expect((await call(app, owner.cookie, 'GET', `/api/galleries/${g.id}/items?limit=0`)).status).toBe(400);
  }, 180_000);
});
