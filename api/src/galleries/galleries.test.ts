import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { createGallery } from './rules.ts';
import { listGalleries } from './listing.ts';
import { splitTags } from './input.ts';
import { call, makeFile, makeGallery } from './testing.ts';

let app: TestApp, alice: User;
beforeAll(async () => {
  [app, alice] = await appWithPeople(anyone);
});
afterAll(() => app.close());

const ctxOf = (user: { id: string; email: string }) => ({
  ...app.services,
  viewer: { id: user.id, email: user.email, sessionId: 'test' },
});

describe('creating a gallery', () => {
  it('keeps every field of the create form and answers with photoCount and coverImageUrl', async () => {
    // Kept as typed; the name is trimmed and the tags split, below.
    const asTyped = {
      description: 'Brick, rust, north light',
      projectName: 'Campaign X',
      movieTvShow: 'The Mill',
      location: 'Leeds',
      propertyType: 'industrial',
      style: 'rustic',
      status: 'scouted',
    };
    const { status, body } = await call(app, alice.cookie, 'POST', '/api/galleries', {
      ...asTyped,
      name: '  Abandoned mill  ',
      tags: 'industrial, night , ,brick,',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      ...asTyped,
      name: 'Abandoned mill',
      tags: ['industrial', 'night', 'brick'],
      isPublic: false,
      coverImageId: null,
      coverImageUrl: null,
      photoCount: 0,
      ownerId: alice.id,
      access: 'owner',
    });
    const activity = await app.database.prisma.activity.findFirst({ where: { resourceId: body.id } });
    expect(activity).toMatchObject({
      action: 'gallery_created',
      resourceType: 'gallery',
      resourceName: 'Abandoned mill',
    });
  });

  it("defaults status to 'active' and accepts tags as a list", async () => {
    const g = await makeGallery(app, alice.cookie, { tags: [' a ', 'b,c', ''], status: '' });
    expect(g.status).toBe('active');
    expect(g.tags).toEqual(['a', 'b', 'c']);
  });

  it.each([
    [{}, 'Gallery name is required.'],
    [{ name: '' }, 'Gallery name is required.'],
    [{ name: '   ' }, 'Gallery name is required.'],
    [{ name: 42 }, 'Gallery name is required.'],
    [
      { name: 'x', propertyType: 'castle' },
      'Property type must be one of residential, commercial, industrial, outdoor, studio.',
    ],
    [
      { name: 'x', style: 'baroque' },
      'Style must be one of modern, vintage, rustic, minimalist, industrial, traditional.',
    ],
    [{ name: 'x', tags: 5 }, 'Tags must be a list or a comma-separated text.'],
    [{ name: 'x', owner: 'me' }, 'Unrecognized key'],
  ])('refuses %j with a clear message', async (input, message) => {
    const before = await app.database.prisma.gallery.count();
    const { status, body } = await call(app, alice.cookie, 'POST', '/api/galleries', input);
    expect(status).toBe(400);
    expect(body.message).toContain(message);
    expect(await app.database.prisma.gallery.count()).toBe(before);
  });

  it('answers 400, not 500, for a body that is not JSON', async () => {
    const { status, body } = await call(app, alice.cookie, 'POST', '/api/galleries', '{"name":');
    expect(status).toBe(400);
    expect(body.message).toBe('The request body is not valid JSON.');
  });

  it('splits tags on commas, trims and drops empties', () => {
    expect(splitTags(' a,, b ,')).toEqual(['a', 'b']);
    expect(splitTags(['x, y', ' ', 'z'])).toEqual(['x', 'y', 'z']);
  });
});

describe('editing and deleting', () => {
  it('edits fields, keeps the ones not sent, and clears with null', async () => {
    const g = await makeGallery(app, alice.cookie, { description: 'keep', location: 'Paris', notes: 'n1' });
    const { status, body } = await call(app, alice.cookie, 'PATCH', `/api/galleries/${g.id}`, {
      name: 'Renamed',
      location: null,
      notes: 'Call the caretaker before 9',
      tags: 'a,b',
      isPublic: true,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'Renamed',
      description: 'keep',
      location: null,
      notes: 'Call the caretaker before 9',
      tags: ['a', 'b'],
      isPublic: true,
    });
    const empty = await call(app, alice.cookie, 'PATCH', `/api/galleries/${g.id}`, { name: ' ' });
    expect(empty).toMatchObject({ status: 400, body: { message: 'Gallery name is required.' } });
  });

  it('sets a cover only from the gallery’s own photos, and the URL is the file’s object path', async () => {
    const g = await makeGallery(app, alice.cookie);
    const inside = await makeFile(app, alice.id, 'inside.jpg');
    const outside = await makeFile(app, alice.id, 'outside.jpg');
    await call(app, alice.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [inside.id] });
    const refused = await call(app, alice.cookie, 'PATCH', `/api/galleries/${g.id}`, { coverImageId: outside.id });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: 'The cover image must be a photo in this gallery.' },
    });
    const set = await call(app, alice.cookie, 'PATCH', `/api/galleries/${g.id}`, { coverImageId: inside.id });
    expect(set.body).toMatchObject({ coverImageId: inside.id, coverImageUrl: inside.objectPath, photoCount: 1 });
    // Taking the cover photo out of the gallery leaves it without a cover.
    await call(app, alice.cookie, 'DELETE', `/api/galleries/${g.id}/items/${inside.id}`);
    const after = await call(app, alice.cookie, 'GET', `/api/galleries/${g.id}`);
    expect(after.body).toMatchObject({ coverImageId: null, coverImageUrl: null, photoCount: 0 });
  });

  it('deletes the gallery but not its files', async () => {
    const g = await makeGallery(app, alice.cookie);
    const file = await makeFile(app, alice.id);
    await call(app, alice.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [file.id] });
    expect((await call(app, alice.cookie, 'DELETE', `/api/galleries/${g.id}`)).status).toBe(200);
    expect((await call(app, alice.cookie, 'GET', `/api/galleries/${g.id}`)).status).toBe(404);
    expect(await app.database.prisma.file.count({ where: { id: file.id } })).toBe(1);
    expect((await call(app, alice.cookie, 'DELETE', `/api/galleries/${g.id}`)).status).toBe(404);
    expect((await call(app, alice.cookie, 'DELETE', '/api/galleries/not-a-uuid')).status).toBe(404);
  });
});

describe('listing: search and the seven sort orders', () => {
  let viewer: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    viewer = await signedInUser(app);
    const ctx = ctxOf(viewer);
    // Created one after another so "recent" has a defined order.
    for (const g of [
      {
        name: 'Bravo',
        projectName: 'Zulu',
        location: 'Oslo',
        propertyType: 'studio',
        style: 'modern',
        status: 'active',
        tags: ['Rooftop'],
      },
      {
        name: 'Alpha',
        projectName: 'Mike',
        location: 'Rome',
        propertyType: 'commercial',
        style: 'vintage',
        status: 'archived',
        description: 'A quiet DINER',
      },
      {
        name: 'Charlie',
        projectName: 'Alpha Co',
        location: 'Berlin',
        propertyType: 'residential',
        style: 'rustic',
        status: 'scouted',
        movieTvShow: 'Night Diner',
      },
      { name: 'Delta', tags: ['garden', 'Sunset Terrace'] },
    ]) {
      await createGallery(ctx, g);
      await new Promise((r) => setTimeout(r, 5));
    }
  });

  const names = async (query: string) => {
    const { status, body } = await call(app, viewer.cookie, 'GET', `/api/galleries${query}`);
    expect(status).toBe(200);
    return (body as { name: string }[]).map((g) => g.name);
  };

  it.each([
    ['', ['Delta', 'Charlie', 'Alpha', 'Bravo']],
    ['?sort=recent', ['Delta', 'Charlie', 'Alpha', 'Bravo']],
    ['?sort=name', ['Alpha', 'Bravo', 'Charlie', 'Delta']],
    ['?sort=project', ['Charlie', 'Alpha', 'Bravo', 'Delta']],
    ['?sort=location', ['Charlie', 'Bravo', 'Alpha', 'Delta']],
    // Property type and style follow the labels the user reads, A to Z (Commercial, Residential,
    // Studio; Modern, Rustic, Vintage), not the order the values were declared in.
    ['?sort=propertyType', ['Alpha', 'Charlie', 'Bravo', 'Delta']],
    ['?sort=style', ['Bravo', 'Charlie', 'Alpha', 'Delta']],
    ['?sort=status', ['Delta', 'Bravo', 'Alpha', 'Charlie']],
  ])('orders %s', async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  // The galleries screen's cards come from one hand-written statement, other selections from
  // Prisma: both give the labels' order, page after page.
  it.each([
    ['propertyType', 'photoCount', ['Alpha', 'Charlie', 'Bravo', 'Delta']],
    ['propertyType', 'owner { id }', ['Alpha', 'Charlie', 'Bravo', 'Delta']],
    ['style', 'photoCount', ['Bravo', 'Charlie', 'Alpha', 'Delta']],
    ['style', 'owner { id }', ['Bravo', 'Charlie', 'Alpha', 'Delta']],
  ])('orders GraphQL sort %s (with %s) by label', async (sort, field, expected) => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: { data?: Record<string, unknown> | null; errors?: unknown } = await graphql(
        app,
        viewer.cookie,
        `query($sort: GallerySort, $after: String) { galleries(first: 3, sort: $sort, after: $after) {
           edges { node { name ${field} } } pageInfo { endCursor hasNextPage } } }`,
        { sort, after },
      );
      expect(page.errors).toBeUndefined();
      const list = page.data?.galleries as {
        edges: { node: { name: string } }[];
        pageInfo: { endCursor: string; hasNextPage: boolean };
      };
      seen.push(...list.edges.map((e) => e.node.name));
      after = list.pageInfo.hasNextPage ? list.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(expected);
  });

  it.each([
    ['diner', ['Charlie', 'Alpha']], // movieTvShow and description, any case
    ['ROOF', ['Bravo']], // part of a tag
    ['sunset ter', ['Delta']],
    ['berl', ['Charlie']], // location
    ['ALPHA', ['Alpha']], // name (projectName is not searched)
    ['nothing like it', []],
    ['100%', []],
    ['%', []], // wildcards are plain characters
    ['_', []],
  ])('searches %j', async (search, expected) => {
    expect(await names(`?search=${encodeURIComponent(search)}`)).toEqual(expected);
  });

  it('finds a literal % or _ in names and tags', async () => {
    const other = await signedInUser(app);
    await makeGallery(app, other.cookie, { name: '100% rooftop', tags: 'under_pass' });
    await makeGallery(app, other.cookie, { name: '1000 rooftops' });
    const found = async (q: string) =>
      (await call(app, other.cookie, 'GET', `/api/galleries?search=${encodeURIComponent(q)}`)).body.map(
        (g: { name: string }) => g.name,
      );
    expect(await found('100%')).toEqual(['100% rooftop']);
    expect(await found('under_p')).toEqual(['100% rooftop']);
    expect(await found('rooftop')).toEqual(['1000 rooftops', '100% rooftop']);
  });

  it('refuses an unknown sort order', async () => {
    const { status, body } = await call(app, viewer.cookie, 'GET', '/api/galleries?sort=size');
    expect(status).toBe(400);
    expect(body.message).toBe('Sort must be one of recent, name, project, location, propertyType, style, status.');
  });

  it('listGalleries serves other domains the same list', async () => {
    const list = await listGalleries(ctxOf(viewer), { search: 'diner', sort: 'name' });
    expect(list.map((g) => g.name)).toEqual(['Alpha', 'Charlie']);
  });

  it('counts photos for real', async () => {
    const g = await makeGallery(app, viewer.cookie, { name: 'Counted' });
    const files = await Promise.all([1, 2, 3].map((i) => makeFile(app, viewer.id, `p${i}.jpg`)));
    await call(app, viewer.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: files.map((f) => f.id) });
    const list = await call(app, viewer.cookie, 'GET', '/api/galleries?search=counted');
    expect(list.body[0].photoCount).toBe(3);
  });
});
