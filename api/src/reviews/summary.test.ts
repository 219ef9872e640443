import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { graphql, send, type SignedInUser, type TestApp } from '../../test/harness.ts';
import { statementsOf } from '../../test/statements.ts';
import { call, makeFile, makeGallery, shareWith } from '../galleries/testing.ts';
import { withFourPeople, makeReviewLink } from './testing.ts';

// Feedback on the owner's grid: counts per photo, totals, the pick filter, and a new gallery from
// the picks; who may read them and who may copy.

let app: TestApp, owner: SignedInUser, editor: SignedInUser, reader: SignedInUser, outsider: SignedInUser;
withFourPeople((people) => {
  ({ app, owner, editor, reader, outsider } = people);
});

const gid = (id: string) => encodeGlobalID('Gallery', id);

/**
 * Four photos, two links. Through the director's link: p1 Yes + a comment, p2 No, p3 two comments.
 * Through the producer's: p2 Yes. p4 has nothing.
 */
async function reviewed() {
  const gallery = await makeGallery(app, owner.cookie, { name: 'Cadiz loft', location: 'Cadiz' });
  const files = [];
  for (const name of ['p1.jpg', 'p2.jpg', 'p3.jpg', 'p4.jpg']) files.push(await makeFile(app, owner.id, name));
  const added = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, {
    fileIds: files.map((f) => f.id),
  });
  expect(added.status).toBe(201);
  const [p1, p2, p3, p4] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0], (typeof files)[0]];
  const director = await makeReviewLink(app, owner.cookie, gallery.id, { label: 'Director' });
  const producer = await makeReviewLink(app, owner.cookie, gallery.id, { label: 'Producer' });
  const pick = async (token: string, fileId: string, value: string) =>
    expect(
      (await send(app, undefined, 'PUT', `/api/review/${token}/picks/${fileId}`, { name: 'Dana', pick: value })).status,
    ).toBe(200);
  const comment = async (token: string, fileId: string, body: string) =>
    expect(
      (await send(app, undefined, 'POST', `/api/review/${token}/comments`, { fileId, name: 'Dana', body })).status,
    ).toBe(201);
  await pick(director.token, p1.id, 'yes');
  await comment(director.token, p1.id, 'This one');
  await pick(director.token, p2.id, 'no');
  await comment(director.token, p3.id, 'Too dark');
  await comment(director.token, p3.id, 'Maybe at dusk');
  await pick(producer.token, p2.id, 'yes');
  return { gallery, p1, p2, p3, p4, director, producer };
}

const SUMMARY = `query ($id: ID!) {
  gallery: node(id: $id) {
    ... on Gallery {
      feedbackSummary { picked rejected maybe commented comments unreviewed photos links { label picked rejected comments commented } }
      items(first: 10) { edges { node { name feedback { yes no maybe comments } } } }
    }
  }
}`;

const FILTERED = `query ($id: ID!, $filter: FeedbackFilter!, $link: ID) {
  gallery: node(id: $id) {
    ... on Gallery { feedbackItems(filter: $filter, reviewLinkId: $link, first: 10) { totalCount edges { node { name } } } }
  }
}`;

type Filtered = { gallery: { feedbackItems: { totalCount: number; edges: { node: { name: string } }[] } } | null };

describe('feedback on the grid', () => {
  it('counts picks and comments per photo, in totals and per review link', async () => {
    const { gallery } = await reviewed();
    const { data } = await graphql<{
      gallery: {
        feedbackSummary: Record<string, unknown>;
        items: { edges: { node: { name: string; feedback: object } }[] };
      };
    }>(app, owner.cookie, SUMMARY, { id: gid(gallery.id) });
    expect(data?.gallery.feedbackSummary).toEqual({
      picked: 2,
      rejected: 1,
      maybe: 0,
      commented: 2,
      comments: 3,
      unreviewed: 1,
      photos: 4,
      links: [
        { label: 'Producer', picked: 1, rejected: 0, comments: 0, commented: 0 },
        { label: 'Director', picked: 1, rejected: 1, comments: 3, commented: 2 },
      ],
    });
    expect(data?.gallery.items.edges.map((e) => [e.node.name, e.node.feedback])).toEqual([
      ['p1.jpg', { yes: 1, no: 0, maybe: 0, comments: 1 }],
      ['p2.jpg', { yes: 1, no: 1, maybe: 0, comments: 0 }],
      ['p3.jpg', { yes: 0, no: 0, maybe: 0, comments: 2 }],
      ['p4.jpg', { yes: 0, no: 0, maybe: 0, comments: 0 }],
    ]);
    const rest = await send(app, owner.cookie, 'GET', `/api/galleries/${gallery.id}/feedback`);
    expect(rest.body).toMatchObject({ picked: 2, rejected: 1, comments: 3, unreviewed: 1 });
  });

  it('reads the counts of a whole page of photos in one statement, not one per photo', async () => {
    const { gallery } = await reviewed();
    const statements = await statementsOf(() => graphql(app, owner.cookie, SUMMARY, { id: gid(gallery.id) }));
    expect(statements.filter((s) => s.includes('"PhotoPick"') && s.includes('unnest'))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('"PhotoComment"')).length).toBeLessThanOrEqual(3);
  });

  it('filters the photos by what reviewers said, overall or through one link', async () => {
    const { gallery, producer } = await reviewed();
    const names = async (filter: string, link?: string) => {
      const { data, errors } = await graphql<Filtered>(app, owner.cookie, FILTERED, {
        id: gid(gallery.id),
        filter,
        link: link && encodeGlobalID('ReviewLink', link),
      });
      expect(errors).toBeUndefined();
      const list = data?.gallery?.feedbackItems;
      expect(list?.totalCount).toBe(list?.edges.length);
      return list?.edges.map((e) => e.node.name);
    };
    expect(await names('all')).toEqual(['p1.jpg', 'p2.jpg', 'p3.jpg', 'p4.jpg']);
    expect(await names('picked')).toEqual(['p1.jpg', 'p2.jpg']);
    expect(await names('rejected')).toEqual(['p2.jpg']);
    expect(await names('maybe')).toEqual([]);
    expect(await names('commented')).toEqual(['p1.jpg', 'p3.jpg']);
    expect(await names('unreviewed')).toEqual(['p4.jpg']);
    expect(await names('picked', producer.id)).toEqual(['p2.jpg']);
    expect(await names('commented', producer.id)).toEqual([]);
  });

  it('refuses a review link of another gallery as a filter', async () => {
    const { gallery } = await reviewed();
    const other = await reviewed();
    const { errors } = await graphql<Filtered>(app, owner.cookie, FILTERED, {
      id: gid(gallery.id),
      filter: 'picked',
      link: encodeGlobalID('ReviewLink', other.director.id),
    });
    expect(errors?.[0]?.message).toMatch(/Review link not found/i);
  });

  it('shows members the totals, the links only to those who manage them, and strangers nothing', async () => {
    const { gallery } = await reviewed();
    await shareWith(app, owner, editor, gallery.id, 'write');
    await shareWith(app, owner, reader, gallery.id, 'read');
    const summaryOf = async (who: SignedInUser) =>
      (
        await graphql<{ gallery: { feedbackSummary: { picked: number; links: unknown[] } } | null }>(
          app,
          who.cookie,
          SUMMARY,
          {
            id: gid(gallery.id),
          },
        )
      ).data?.gallery?.feedbackSummary ?? null;
    expect(await summaryOf(editor)).toMatchObject({ picked: 2, links: [{}, {}] });
    expect(await summaryOf(reader)).toMatchObject({ picked: 2, links: [] });
    expect(await summaryOf(outsider)).toBeNull();
    const filtered = await graphql<Filtered>(app, outsider.cookie, FILTERED, { id: gid(gallery.id), filter: 'picked' });
    expect(filtered.data?.gallery ?? null).toBeNull();
    expect((await send(app, outsider.cookie, 'GET', `/api/galleries/${gallery.id}/feedback`)).status).toBe(404);
  });
});

const FROM_PICKS = `mutation ($id: ID!, $link: ID, $name: String) {
  createGalleryFromPicks(galleryId: $id, reviewLinkId: $link, name: $name) {
    __typename
    ... on MutationCreateGalleryFromPicksSuccess {
      data { added skipped gallery { id name owner { id } items(first: 10) { edges { node { name } } } } }
    }
    ... on Error { message }
  }
}`;

type FromPicks = {
  createGalleryFromPicks: {
    __typename: string;
    message?: string;
    data?: {
      added: number;
      skipped: number;
      gallery: { id: string; name: string; owner: { id: string }; items: { edges: { node: { name: string } }[] } };
    };
  };
};

describe('new gallery from picks', () => {
  it('holds exactly the photos said Yes to, in order, overall or through one link', async () => {
    const { gallery, director } = await reviewed();
    const all = await graphql<FromPicks>(app, owner.cookie, FROM_PICKS, { id: gid(gallery.id) });
    const made = all.data?.createGalleryFromPicks.data;
    expect(made).toMatchObject({
      added: 2,
      skipped: 0,
      gallery: { name: 'Cadiz loft – picks', owner: { id: encodeGlobalID('User', owner.id) } },
    });
    expect(made?.gallery.items.edges.map((e) => e.node.name)).toEqual(['p1.jpg', 'p2.jpg']);

    const one = await graphql<FromPicks>(app, owner.cookie, FROM_PICKS, {
      id: gid(gallery.id),
      link: encodeGlobalID('ReviewLink', director.id),
      name: 'Director likes',
    });
    const mine = one.data?.createGalleryFromPicks.data;
    expect(mine).toMatchObject({ added: 1, gallery: { name: 'Director likes' } });
    expect(mine?.gallery.items.edges.map((e) => e.node.name)).toEqual(['p1.jpg']);

    const rest = await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/from-picks`, { name: 'By REST' });
    expect(rest).toMatchObject({ status: 201, body: { name: 'By REST', added: 2, skipped: 0 } });
    const items = await app.database.prisma.galleryItem.findMany({
      where: { galleryId: rest.body.id },
      orderBy: { position: 'asc' },
      include: { file: { select: { name: true } } },
    });
    expect(items.map((i) => i.file.name)).toEqual(['p1.jpg', 'p2.jpg']);
    // The source gallery is untouched.
    expect(await app.database.prisma.galleryItem.count({ where: { galleryId: gallery.id } })).toBe(4);
  });

  it('says why when there is nothing to copy, or the input is wrong', async () => {
    const empty = await makeGallery(app, owner.cookie, { name: 'Nobody looked' });
    const none = await graphql<FromPicks>(app, owner.cookie, FROM_PICKS, { id: gid(empty.id) });
    expect(none.data?.createGalleryFromPicks.message).toBe('Nobody has picked a photo yet: there is nothing to copy.');
    const { gallery } = await reviewed();
    const long = await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/from-picks`, {
      name: 'x'.repeat(201),
    });
    expect(long).toMatchObject({ status: 400, body: { message: 'The name is too long (at most 200 characters).' } });
    const extra = await send(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/from-picks`, { fileIds: [] });
    expect(extra.status).toBe(400);
  });

  it('copies only photos the viewer added, and nothing for strangers', async () => {
    const { gallery } = await reviewed();
    await shareWith(app, owner, editor, gallery.id, 'write');
    const before = await app.database.prisma.gallery.count();
    const theirs = await graphql<FromPicks>(app, editor.cookie, FROM_PICKS, { id: gid(gallery.id) });
    expect(theirs.data?.createGalleryFromPicks.message).toMatch(/only photos you added/);
    const stranger = await send(app, outsider.cookie, 'POST', `/api/galleries/${gallery.id}/from-picks`, {});
    expect(stranger.status).toBe(404);
    expect(await app.database.prisma.gallery.count()).toBe(before);

    // The editor adds a photo of their own and a reviewer picks it: that one they may copy.
    const own = await makeFile(app, editor.id, 'editor.jpg');
    expect(
      (await call(app, editor.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [own.id] })).status,
    ).toBe(201);
    const link = await makeReviewLink(app, owner.cookie, gallery.id);
    await send(app, undefined, 'PUT', `/api/review/${link.token}/picks/${own.id}`, { name: 'Sam', pick: 'yes' });
    const copied = await graphql<FromPicks>(app, editor.cookie, FROM_PICKS, { id: gid(gallery.id) });
    expect(copied.data?.createGalleryFromPicks.data).toMatchObject({ added: 1, skipped: 2 });
    expect(copied.data?.createGalleryFromPicks.data?.gallery.items.edges.map((e) => e.node.name)).toEqual([
      'editor.jpg',
    ]);
  });
});
