import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyone, appWithPeople, graphql, type SignedInUser as User, type TestApp } from '../../test/harness.ts';
import { countStatements } from '../../test/statements.ts';
import type { ViewerContext } from '../context.ts';
import { projectMemberWhere } from '../access/rules.ts';
import { GALLERY_SORTS } from './input.ts';
import { galleryCardFacts, galleryCardsPage, galleryListQuery, type GalleryListOptions } from './listing.ts';
import { call, makeFile, makeGallery, shareWith } from './testing.ts';

let app: TestApp, alice: User, bob: User, carol: User;

// Galleries with every sort column set, empty and tied, covers or none, photos or none, seen by
// their owner, by a member of read and write shares, and by a stranger with galleries of her own.
beforeAll(async () => {
  [app, alice, bob, carol] = await appWithPeople(anyone, anyone, anyone);
  const rows = [
    {
      name: 'Loft 10',
      tags: 'night,Industrial',
      projectName: 'Night Shift',
      location: 'Detroit',
      propertyType: 'industrial',
      style: 'rustic',
    },
    { name: 'loft 9', tags: 'day', location: 'Berlin', propertyType: 'residential' },
    { name: 'Warehouse', description: 'Big 50% loft_space', projectName: 'Night Shift', status: 'archived' },
    { name: 'Alley', movieTvShow: 'The Show', tags: 'exterior', style: 'modern' },
    { name: 'Diner', location: 'detroit', status: 'scouted', tags: 'NIGHTLIFE' },
    { name: 'Attic', projectName: 'Day Shoot', style: 'vintage', propertyType: 'residential' },
  ];
  for (const [i, fields] of rows.entries()) {
    const g = await makeGallery(app, alice.cookie, fields);
    if (i % 2 === 0) {
      const files = [await makeFile(app, alice.id, `a${i}.jpg`), await makeFile(app, alice.id, `b${i}.jpg`)];
      await call(app, alice.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: files.map((f) => f.id) });
      if (i % 4 === 0) await call(app, alice.cookie, 'PATCH', `/api/galleries/${g.id}`, { coverImageId: files[1]?.id });
      // One cover with its high-density thumbnail made, one without.
      if (i === 0) {
        await app.services.db.file.update({
          where: { id: files[1]?.id },
          data: { metadata: { thumbnails: { grid: true, grid2x: true, preview: true } } },
        });
      }
    }
    if (i === 1 || i === 2) await shareWith(app, alice, bob, g.id, 'write');
    if (i === 2 || i === 3) await shareWith(app, alice, bob, g.id, 'read');
  }
  await makeGallery(app, bob.cookie, { name: 'Bob loft', tags: 'night' });
  await makeGallery(app, carol.cookie, { name: 'Carol loft', location: 'Detroit' });
});
afterAll(() => app.close());

const contextOf = (user: User): ViewerContext => ({
  ...app.services,
  viewer: { id: user.id, email: user.email, sessionId: 'test' },
});

/** Labels are the values capitalised (web options.ts), so A to Z of labels is A to Z of values. */
const byLabel = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/** The oracle: Prisma's page with what the cards show, read through Prisma's relations. */
async function prismaPage(ctx: ViewerContext, options: GalleryListOptions, take: number, after?: string) {
  const page = await prismaGalleries(ctx, options, take, after);
  return page.map(({ coverImage, _count, ...gallery }) => ({
    gallery,
    facts: {
      coverPath: coverImage?.objectPath ?? null,
      coverGrid2x: (coverImage?.metadata as { thumbnails?: { grid2x?: unknown } } | null)?.thumbnails?.grid2x === true,
      photoCount: _count.items,
      writeShared: _count.shares > 0,
    },
  }));
}

/** The statement's page, each row with the facts the card fields read for it. */
async function cardsPage(ctx: ViewerContext, options: GalleryListOptions & { take: number; after?: string }) {
  const page = await galleryCardsPage(ctx, options);
  return Promise.all(
    page.map(async (gallery) => ({ gallery, facts: await galleryCardFacts(ctx, gallery, { keep: false }) })),
  );
}

async function prismaGalleries(ctx: ViewerContext, options: GalleryListOptions, take: number, after?: string) {
  const { where, orderBy } = await galleryListQuery(ctx, options);
  const include = {
    coverImage: { select: { objectPath: true, metadata: true } },
    _count: {
      select: {
        items: true,
        shares: { where: { status: 'active', permission: 'write', project: projectMemberWhere(ctx.viewer.id) } },
      },
    },
  } as const;
  if (orderBy) {
    return app.services.db.gallery.findMany({
      where,
      orderBy,
      include,
      take,
      ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    });
  }
  // Property type and style: Prisma cannot order by label, so the oracle sorts here.
  const field = options.sort as 'propertyType' | 'style';
  const all = (await app.services.db.gallery.findMany({ where, include })).sort(
    (a, b) =>
      byLabel(a[field], b[field]) ||
      b.createdAt.getTime() - a.createdAt.getTime() ||
      (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  const start = after ? all.findIndex((g) => g.id === after) + 1 : 0;
  return all.slice(start, start + take);
}

describe('the gallery cards statement', () => {
  it('answers exactly as Prisma does for every viewer, sort, search and cursor', async () => {
    let compared = 0;
    for (const user of [alice, bob, carol]) {
      const ctx = contextOf(user);
      for (const sort of GALLERY_SORTS) {
        for (const search of ['', 'LOFT', 'night', 'detroit', '%', '_', 'nothing like it']) {
          const options = { sort, search };
          const all = await prismaPage(ctx, options, 100);
          expect(await cardsPage(ctx, { ...options, take: 100 })).toEqual(all);
          // Page by page, as a client scrolls: three at a time from each page's last gallery.
          let after: string | undefined;
          do {
            const expected = await prismaPage(ctx, options, 3, after);
            expect(await cardsPage(ctx, { ...options, take: 3, after })).toEqual(expected);
            compared += 1;
            after = expected.at(-1)?.gallery.id;
          } while (after);
        }
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('shows a stranger nothing of another person', async () => {
    const seen = await galleryCardsPage(contextOf(carol), { take: 100 });
    expect(seen.map((g) => g.name)).toEqual(['Carol loft']);
    const aliceFirst = (await galleryCardsPage(contextOf(alice), { take: 1 }))[0]?.id;
    expect(await galleryCardsPage(contextOf(carol), { take: 100, after: aliceFirst })).toEqual([]);
  });

  it('counts photos and tells write shares from read shares', async () => {
    const cards = await cardsPage(contextOf(bob), { take: 100, sort: 'name' });
    expect(
      cards.map(({ gallery, facts }) => [gallery.name, facts.photoCount, facts.writeShared, facts.coverPath]),
    ).toEqual([
      ['Alley', 0, false, null],
      ['Bob loft', 0, false, null],
      ['loft 9', 0, true, null],
      ['Warehouse', 2, true, null],
    ]);
  });

  it("offers a cover's high-density thumbnail only once it is made", async () => {
    type Page = { galleries: { edges: { node: { name: string; coverImageUrl: string; coverImage2xUrl: string } }[] } };
    const { data } = await graphql<Page>(
      app,
      alice.cookie,
      'query { galleries(first: 100, sort: name) { edges { node { name coverImageUrl coverImage2xUrl } } } }',
    );
    const covers = (data?.galleries.edges ?? []).map((e) => e.node).filter((g) => g.coverImageUrl);
    expect(covers.map((g) => [g.name, g.coverImage2xUrl])).toEqual([
      ['Diner', null],
      ['Loft 10', `${covers[1]?.coverImageUrl}?variant=grid2x`],
    ]);
  });

  it('serves the galleries screen query in one statement after the session lookup', async () => {
    const screen = `query { galleries(first: 2) { edges { node { id name tags photoCount coverImageUrl coverImage2xUrl viewerAccess } cursor }
      pageInfo { endCursor hasNextPage } } }`;
    let result: Awaited<ReturnType<typeof graphql>> | undefined;
    const statements = await countStatements(async () => {
      result = await graphql(app, bob.cookie, screen);
    });
    expect(result?.errors).toBeUndefined();
    expect(statements).toBe(2);
    const data = result?.data as { galleries: { edges: { node: { name: string; viewerAccess: string } }[] } };
    expect(data.galleries.edges.map((e) => [e.node.name, e.node.viewerAccess])).toEqual([
      ['Bob loft', 'owner'],
      ['Alley', 'read'],
    ]);
  });

  it('reads a card again after each change of a request, and the same through a page read backwards', async () => {
    const gallery = await makeGallery(app, alice.cookie, { name: 'Two steps' });
    const [one, two] = [await makeFile(app, alice.id, 'one.jpg'), await makeFile(app, alice.id, 'two.jpg')];
    const added = `... on MutationAddFilesToGallerySuccess { data { photoCount } }`;
    const steps = await graphql<Record<'first' | 'second', { data: { photoCount: number } }>>(
      app,
      alice.cookie,
      `mutation($g: ID!, $one: [ID!]!, $two: [ID!]!) {
        first: addFilesToGallery(galleryId: $g, fileIds: $one) { ${added} }
        second: addFilesToGallery(galleryId: $g, fileIds: $two) { ${added} }
      }`,
      { g: gallery.id, one: [one.id], two: [two.id] },
    );
    expect([steps.data?.first.data.photoCount, steps.data?.second.data.photoCount]).toEqual([1, 2]);

    type Page = { galleries: { edges: { node: Record<string, unknown> }[] } };
    const card = 'id name photoCount coverImageUrl viewerAccess viewerCanEdit';
    const forward = await graphql<Page>(
      app,
      bob.cookie,
      `query { galleries(first: 100) { edges { node { ${card} } } } }`,
    );
    const backward = await graphql<Page>(
      app,
      bob.cookie,
      `query { galleries(last: 3) { edges { node { ${card} } } } }`,
    );
    expect(backward.errors).toBeUndefined();
    expect(backward.data?.galleries.edges).toEqual(forward.data?.galleries.edges.slice(-3));
    expect(forward.data?.galleries.edges.map((e) => e.node.viewerAccess)).toContain('write');
  });
});
