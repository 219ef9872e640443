import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { call, makeFile, makeGallery, makeProject } from './testing.ts';

function ownerGallery(t: AccessHarness) {
  return makeGallery(t.app, t.owner.cookie);
}

async function galleryWithPhoto(t: AccessHarness) {
  const gallery = await makeGallery(t.app, t.owner.cookie, { name: 'Owner gallery' });
  const file = await makeFile(t.app, t.owner.id);
  const added = await call(t.app, t.owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] });
  expect(added.status).toBe(201);
  return { gallery, file };
}

/** A gallery of the owner's, shared with a project of the owner's. */
async function sharedGallery(t: AccessHarness) {
  const gallery = await ownerGallery(t);
  const project = await makeProject(t.app, t.owner.cookie);
  const shared = await call(t.app, t.owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, {
    projectId: project.id,
  });
  return { gallery, share: shared.body as { id: string } };
}

const db = (t: AccessHarness) => t.app.database.prisma;

/** The owner's gallery still holds `count` photos. */
async function itemsLeft(t: AccessHarness, gallery: { id: string }, count: number) {
  expect(await db(t).galleryItem.count({ where: { galleryId: gallery.id } })).toBe(count);
}

/** The stranger asks at a gallery route (`:id` filled in) about the owner's gallery with a photo: not found. */
function photoGalleryNotFound(route: string, name: string) {
  return accessCase({
    route,
    name,
    given: galleryWithPhoto,
    asks: ({ gallery }) => route.slice(route.indexOf(' ') + 1).replace(':id', gallery.id),
    expect: 'not-found',
  });
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/galleries',
    name: "the list holds none of the owner's galleries",
    given: (t) => makeGallery(t.app, t.owner.cookie, { name: 'Hidden loft', tags: 'secret' }),
    asks: () => '/api/galleries?search=secret',
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'POST /api/galleries',
    name: 'creates a gallery of their own only',
    asks: () => ({ body: { name: 'Stranger gallery' } }),
    expect: 'own-data-only',
  }),
  accessCase({
    route: 'GET /api/galleries/:id',
    name: "cannot read the owner's gallery",
    given: ownerGallery,
    asks: (gallery) => `/api/galleries/${gallery.id}`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'PATCH /api/galleries/:id',
    name: "cannot edit the owner's gallery",
    given: (t) => makeGallery(t.app, t.owner.cookie, { name: 'Keep me' }),
    asks: (gallery) => ({ path: `/api/galleries/${gallery.id}`, body: { name: 'Taken over' } }),
    expect: 'not-found',
    async unchanged(t, { id }) {
      expect((await db(t).gallery.findUniqueOrThrow({ where: { id } })).name).toBe('Keep me');
    },
  }),
  accessCase({
    route: 'DELETE /api/galleries/:id',
    name: "cannot delete the owner's gallery",
    given: ownerGallery,
    asks: (gallery) => `/api/galleries/${gallery.id}`,
    expect: 'not-found',
    async unchanged(t, { id }) {
      expect(await db(t).gallery.count({ where: { id } })).toBe(1);
    },
  }),
  photoGalleryNotFound('GET /api/galleries/:id/items', "cannot list the owner's photos"),
  accessCase({
    route: 'POST /api/galleries/:id/items',
    name: "cannot add files to the owner's gallery",
    async given(t) {
      const gallery = await ownerGallery(t);
      return { gallery, mine: await makeFile(t.app, t.stranger.id) };
    },
    asks: ({ gallery, mine }) => ({ path: `/api/galleries/${gallery.id}/items`, body: { fileIds: [mine.id] } }),
    expect: 'not-found',
    unchanged: (t, { gallery }) => itemsLeft(t, gallery, 0),
  }),
  accessCase({
    route: 'PATCH /api/galleries/:id/items/:fileId',
    name: "cannot reorder the owner's photos",
    given: galleryWithPhoto,
    asks: ({ gallery, file }) => ({
      path: `/api/galleries/${gallery.id}/items/${file.id}`,
      body: { beforeFileId: null },
    }),
    expect: 'not-found',
    async unchanged(t, { gallery }) {
      expect((await db(t).galleryItem.findFirstOrThrow({ where: { galleryId: gallery.id } })).position).toBe(0);
    },
  }),
  accessCase({
    route: 'DELETE /api/galleries/:id/items/:fileId',
    name: "cannot take photos out of the owner's gallery",
    given: galleryWithPhoto,
    asks: ({ gallery, file }) => `/api/galleries/${gallery.id}/items/${file.id}`,
    expect: 'not-found',
    unchanged: (t, { gallery }) => itemsLeft(t, gallery, 1),
  }),
  photoGalleryNotFound('GET /api/galleries/:id/export.zip', "cannot download the owner's photos as a ZIP"),
  photoGalleryNotFound('GET /api/galleries/:id/export.pdf', "cannot download the owner's gallery as a PDF"),
  accessCase({
    route: 'GET /api/galleries/:id/shares',
    name: "cannot see who the owner's gallery is shared with",
    given: sharedGallery,
    asks: ({ gallery }) => `/api/galleries/${gallery.id}/shares`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'POST /api/galleries/:id/share',
    name: "cannot share the owner's gallery, even with their own project",
    async given(t) {
      const gallery = await ownerGallery(t);
      return { gallery, theirs: await makeProject(t.app, t.stranger.cookie, { name: 'Stranger project' }) };
    },
    asks: ({ gallery, theirs }) => ({ path: `/api/galleries/${gallery.id}/share`, body: { projectId: theirs.id } }),
    expect: 'not-found',
    async unchanged(t, { gallery }) {
      expect(await db(t).galleryShare.count({ where: { galleryId: gallery.id } })).toBe(0);
    },
  }),
  accessCase({
    route: 'DELETE /api/project-galleries/:shareId',
    name: "cannot revoke the owner's share",
    given: sharedGallery,
    asks: ({ share }) => `/api/project-galleries/${share.id}`,
    expect: 'not-found',
    async unchanged(t, { share }) {
      expect(await db(t).galleryShare.count({ where: { id: share.id } })).toBe(1);
    },
  }),
];
