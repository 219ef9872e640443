import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql } from '../../test/harness.ts';
import { call, makeFile, makeGallery, shareWith } from './testing.ts';

// Issue 53: the order of a gallery's photos, kept on the gallery: sorted or manual, the same for
// everyone, set only by editors, and paged in that order with stable cursors.

let app: TestApp, owner: User, viewer: User, editor: User;
beforeAll(async () => {
  [app, owner, viewer, editor] = await appWithPeople(anyone, anyone, anyone);
});
afterAll(() => app.close());

const ITEMS = `query($id: ID!, $after: String) { node(id: $id) { ... on Gallery {
  photoOrder items(first: 2, after: $after) { pageInfo { endCursor hasNextPage } edges { node { name } } } } } }`;
type Items = {
  node: {
    photoOrder: string;
    items: { pageInfo: { endCursor: string; hasNextPage: boolean }; edges: { node: { name: string } }[] };
  };
};

/** Every photo's name, page by page of two, as the grid reads them. */
async function names(who: User, galleryId: string) {
  const seen: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page: { data?: Items; errors?: unknown } = await graphql<Items>(app, who.cookie, ITEMS, {
      id: encodeGlobalID('Gallery', galleryId),
      after,
    });
    expect(page.errors).toBeUndefined();
    const items = page.data!.node.items;
    seen.push(...items.edges.map((e) => e.node.name));
    if (!items.pageInfo.hasNextPage) return seen;
    after = items.pageInfo.endCursor;
  }
}

const SET = `mutation($id: ID!, $order: GalleryPhotoOrder!) { setGalleryPhotoOrder(id: $id, order: $order) {
  __typename ... on MutationSetGalleryPhotoOrderSuccess { data { photoOrder } } ... on Error { message } } }`;
type Set = { setGalleryPhotoOrder: { __typename: string; data?: { photoOrder: string }; message?: string } };

async function gallery() {
  const g = await makeGallery(app, owner.cookie, { name: `Order ${Math.random()}` });
  // Added in this order; names and dates taken each give another order.
  const made = [];
  for (const [name, takenAt] of [
    ['b 10.jpg', '2024-05-03T10:00:00'],
    ['a.jpg', '2024-05-01T10:00:00'],
    ['b 9.jpg', null],
    ['C.jpg', '2024-05-02T10:00:00'],
  ] as const) {
    const file = await makeFile(app, owner.id, name);
    if (takenAt) {
      await app.database.prisma.file.update({ where: { id: file.id }, data: { metadata: { image: { takenAt } } } });
    }
    made.push(file);
    const added = await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [file.id] });
    expect(added.status).toBe(201);
  }
  return { g, files: made };
}

describe('the order of a gallery’s photos', () => {
  it('sorts by date taken, name or date added, both ways, for every member, paging in that order', async () => {
    const { g } = await gallery();
    await shareWith(app, owner, viewer, g.id, 'read');
    expect(await names(viewer, g.id)).toEqual(['b 10.jpg', 'a.jpg', 'b 9.jpg', 'C.jpg']);
    const expected: Record<string, string[]> = {
      name_asc: ['a.jpg', 'b 9.jpg', 'b 10.jpg', 'C.jpg'],
      name_desc: ['C.jpg', 'b 10.jpg', 'b 9.jpg', 'a.jpg'],
      taken_asc: ['b 9.jpg', 'a.jpg', 'C.jpg', 'b 10.jpg'],
      taken_desc: ['b 10.jpg', 'C.jpg', 'a.jpg', 'b 9.jpg'],
      added_desc: ['C.jpg', 'b 9.jpg', 'a.jpg', 'b 10.jpg'],
      added_asc: ['b 10.jpg', 'a.jpg', 'b 9.jpg', 'C.jpg'],
    };
    for (const [order, want] of Object.entries(expected)) {
      const set = await graphql<Set>(app, owner.cookie, SET, { id: encodeGlobalID('Gallery', g.id), order });
      expect(set.data?.setGalleryPhotoOrder).toEqual({
        __typename: 'MutationSetGalleryPhotoOrderSuccess',
        data: { photoOrder: order },
      });
      // Kept on the gallery: the member (view only) sees the same order, on every page.
      expect(await names(viewer, g.id), order).toEqual(want);
      const rest = await call(app, viewer.cookie, 'GET', `/api/galleries/${g.id}/items?limit=3`);
      expect(rest.body.map((i: { file: { name: string } }) => i.file.name)).toEqual(want.slice(0, 3));
      const next = await call(
        app,
        viewer.cookie,
        'GET',
        `/api/galleries/${g.id}/items?limit=3&after=${rest.body[2].cursor}`,
      );
      expect(next.body.map((i: { file: { name: string } }) => i.file.name)).toEqual(want.slice(3));
    }
  });

  it('lets only editors set it; a view-only member changes nothing', async () => {
    const { g } = await gallery();
    await shareWith(app, owner, viewer, g.id, 'read');
    await shareWith(app, owner, editor, g.id, 'write');
    const id = encodeGlobalID('Gallery', g.id);
    const refused = await graphql<Set>(app, viewer.cookie, SET, { id, order: 'name_asc' });
    expect(refused.data?.setGalleryPhotoOrder.__typename).not.toBe('MutationSetGalleryPhotoOrderSuccess');
    expect((await call(app, viewer.cookie, 'PATCH', `/api/galleries/${g.id}`, { photoOrder: 'name_asc' })).status).toBe(
      403,
    );
    expect(
      (await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}`, { photoOrder: 'sideways' })).body.message,
    ).toBe('photoOrder must be one of manual, taken_asc, taken_desc, name_asc, name_desc, added_asc, added_desc.');
    expect((await app.database.prisma.gallery.findUniqueOrThrow({ where: { id: g.id } })).photoOrder).toBe('manual');
    const set = await graphql<Set>(app, editor.cookie, SET, { id, order: 'name_desc' });
    expect(set.data?.setGalleryPhotoOrder.data).toEqual({ photoOrder: 'name_desc' });
    expect(await names(owner, g.id)).toEqual(['C.jpg', 'b 10.jpg', 'b 9.jpg', 'a.jpg']);
  });

  it('a move keeps what people saw as the manual order, writes one row, and pages stay stable around it', async () => {
    const { g, files } = await gallery();
    const [b10, a, b9, c] = files;
    expect((await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}`, { photoOrder: 'name_asc' })).status).toBe(
      200,
    );
    // Dragging C before b 9 in the name order: a, C, b 9, b 10 from now on, in manual order.
    const moved = await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}/items/${c!.id}`, {
      beforeFileId: b9!.id,
    });
    expect(moved.status).toBe(200);
    expect(await names(owner, g.id)).toEqual(['a.jpg', 'C.jpg', 'b 9.jpg', 'b 10.jpg']);
    expect((await app.database.prisma.gallery.findUniqueOrThrow({ where: { id: g.id } })).photoOrder).toBe('manual');

    // Moves between neighbours change only the moved row (positions keep gaps).
    const before = await app.database.prisma.galleryItem.findMany({ where: { galleryId: g.id } });
    await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}/items/${b10!.id}`, { beforeFileId: a!.id });
    const after = await app.database.prisma.galleryItem.findMany({ where: { galleryId: g.id } });
    const changed = after.filter((row) => before.find((b) => b.id === row.id)?.position !== row.position);
    expect(changed.map((row) => row.fileId)).toEqual([b10!.id]);
    expect(await names(owner, g.id)).toEqual(['b 10.jpg', 'a.jpg', 'C.jpg', 'b 9.jpg']);

    // Many moves into the same spot use the gap up; then the gallery is spaced out again, in order.
    for (let i = 0; i < 12; i++) {
      const which = i % 2 ? a! : b10!;
      await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}/items/${which.id}`, { beforeFileId: c!.id });
    }
    expect(await names(owner, g.id)).toEqual(['b 10.jpg', 'a.jpg', 'C.jpg', 'b 9.jpg']);

    // A page read, then a photo moved before the cursor: the next page goes on after the cursor's photo.
    const first = await graphql<Items>(app, owner.cookie, ITEMS, { id: encodeGlobalID('Gallery', g.id), after: null });
    expect(first.data!.node.items.edges.map((e) => e.node.name)).toEqual(['b 10.jpg', 'a.jpg']);
    await call(app, owner.cookie, 'PATCH', `/api/galleries/${g.id}/items/${b9!.id}`, { beforeFileId: b10!.id });
    const second = await graphql<Items>(app, owner.cookie, ITEMS, {
      id: encodeGlobalID('Gallery', g.id),
      after: first.data!.node.items.pageInfo.endCursor,
    });
    expect(second.data!.node.items.edges.map((e) => e.node.name)).toEqual(['C.jpg']);
  });

  it('moves a photo to just after another: a drop after the last photo a page shows, more to come', async () => {
    const { g, files } = await gallery();
    const [b10, a, b9, c] = files;
    const MOVE = `mutation($g: ID!, $f: ID!, $before: ID, $after: ID) {
      moveGalleryItem(galleryId: $g, fileId: $f, beforeFileId: $before, afterFileId: $after) {
        __typename ... on Error { message } } }`;
    type Move = { moveGalleryItem: { __typename: string; message?: string } };
    const move = (who: User, f: string, ids: { before?: string; after?: string }) =>
      graphql<Move>(app, who.cookie, MOVE, {
        g: encodeGlobalID('Gallery', g.id),
        f: encodeGlobalID('File', f),
        before: ids.before && encodeGlobalID('File', ids.before),
        after: ids.after && encodeGlobalID('File', ids.after),
      });
    await graphql<Set>(app, owner.cookie, SET, { id: encodeGlobalID('Gallery', g.id), order: 'name_asc' });
    // The first page of two shows a, b 9: b 10 dropped after b 9 goes there, not to the end.
    expect((await move(owner, b10!.id, { after: b9!.id })).data?.moveGalleryItem.__typename).toBe(
      'MutationMoveGalleryItemSuccess',
    );
    expect(await names(owner, g.id)).toEqual(['a.jpg', 'b 9.jpg', 'b 10.jpg', 'C.jpg']);
    // After the last photo: the end.
    await move(owner, a!.id, { after: c!.id });
    expect(await names(owner, g.id)).toEqual(['b 9.jpg', 'b 10.jpg', 'C.jpg', 'a.jpg']);
    // After the photo just before it, or after itself: nothing moves.
    await move(owner, c!.id, { after: b10!.id });
    await move(owner, c!.id, { after: c!.id });
    expect(await names(owner, g.id)).toEqual(['b 9.jpg', 'b 10.jpg', 'C.jpg', 'a.jpg']);

    const both = await move(owner, a!.id, { before: b9!.id, after: c!.id });
    expect(both.data?.moveGalleryItem.message).toBe('Give beforeFileId or afterFileId, not both.');
    const stranger = await move(owner, a!.id, { after: (await makeFile(app, owner.id, 'elsewhere.jpg')).id });
    expect(stranger.data?.moveGalleryItem.message).toBe('The file to move after is not in this gallery.');
    await shareWith(app, owner, viewer, g.id, 'read');
    expect((await move(viewer, a!.id, { after: b9!.id })).data?.moveGalleryItem.__typename).not.toBe(
      'MutationMoveGalleryItemSuccess',
    );
    expect(await names(owner, g.id)).toEqual(['b 9.jpg', 'b 10.jpg', 'C.jpg', 'a.jpg']);
  });
});
